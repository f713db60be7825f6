"""The index: the loader that reads many files, BM25 postings (keyword), embeddings
(vectors, semantic), and the saved index for warm starts (store, saved_index)."""
