"""Backup and portability: an agent exported to one file, and imported from it."""
