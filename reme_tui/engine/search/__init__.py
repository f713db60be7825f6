"""The search pipeline: query and result types, filters (tags, dates, ReMe's path and
metadata filters), the query grammar people type, fusion and the cut-off."""
