"""Backup and restore of one whole tournament as a versioned JSON archive, and the organiser's buttons for it."""
