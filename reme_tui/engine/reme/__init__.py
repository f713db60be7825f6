"""What is specific to ReMe: its layout and config (.reme discovery), compatibility
checks, day-index pages, provenance links and session transcripts."""
