"""English as the guard reads it: spaCy's tagger and dependency parse, WordNet's senses.

Who did what to whom comes from the parse: the subject and object of each verb (a
passive's subject is its object, its "by" phrase its subject), the party a preposition
binds (from, to, with, than), and the owner of a possessive, each with the verb whose
role it is. Unwritten subjects are the diarist's ("Watched the sunset").

What qualifies a fact comes from the grammar: a modal (the MD tag: will, might, should;
and "be able to", which grammars list with "can"),
a subordinator of condition or order (if, whether, before, after, until), a quantifier
(a determiner that is no article, demonstrative or possessive: all, some, every), the
closed classes of degree, frequency, focus and aspect adverbs (almost, always, only,
still), and a verb that frames another clause as wished, habitual or believed (a
to-infinitive or a finite clause: used to, want to, thinks that). A verb whose complement
is a bare infinitive or a gerund (helped him pick, kept dropping) tells it as done: a
content word. A manner adverb (happily) is a detail like any other word.

Its parts: ``pipeline`` (the parse), ``diarist`` (the diarist's "I" written out where
the parse misreads a diary's opening verb), ``roles`` (who did what to whom, with the
repairs of what the small model misreads), ``lexicon`` (what WordNet says of a word),
``reader`` (the reading the guard compares).

The pipeline (en_core_web_sm 3.8, MIT, Explosion; without its entity recogniser) loads
on first use.
"""

from ego_mcp.memory.guard.english.diarist import with_the_diarist
from ego_mcp.memory.guard.english.pipeline import parse, parse_all
from ego_mcp.memory.guard.english.reader import read

__all__ = ["parse", "parse_all", "read", "with_the_diarist"]
