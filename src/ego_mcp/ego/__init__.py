"""The ego layer: desires, self model, relationships, consolidation and emotion trends."""
