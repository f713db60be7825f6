"""Tags: ReMe's normalization and the two-way tag index, near-duplicate detection (dupes,
hygiene), agent junk-tag lints, and the checks the tag editor shows before saving."""
