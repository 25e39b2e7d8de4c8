"""Submission bundler: an agent -> one self-contained Kaggle file."""
