"""What operators watch: Prometheus metrics, health and readiness, the queue status page."""
