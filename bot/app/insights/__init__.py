"""What moderators read about their server: statistics.py (the figures), digest.py (the weekly digest, built on
the figures) and chart.py (the answer-rate chart both show)."""
