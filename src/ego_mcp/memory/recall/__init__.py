"""Recall: reading memories back by a query, or around a memory along its links.

- ``search``: the ``Recall`` part of the memory service: vectors and words, fused, with
  the context of the best hits; ``explore`` around a memory.
- ``terms``: a text's terms (English lemmas, Japanese words, identifiers whole), which
  the store's lexical index is written with and the query is read with.
- ``bm25``: the corpus statistics and BM25 coverage, per script.
- ``crosslingual``: a query read in the other language (JMdict's translations).
- ``names``: people's other names read as one term.
- ``fusion``: how the halves are ranked together, and the relevance floor.
- ``context``: what a hit lends the memories saved beside it.
- ``explore``: the walk along links.

Everything but ``search`` is pure. The index's writes stay with the store
(``store/lexical_*.py``); they use ``terms`` and ``bm25`` from here.
"""
