"""Japanese as the guard reads it: SudachiPy's analysis with SudachiDict (core).

Sudachi gives each word its part of speech, its conjugation, a normalised form that
folds spelling variants (引越し / 引っ越し, 附属 / 付属) and the synonym groups of its
dictionary (買う and 購入 share one). Who did what comes from the case particles (が and
は the subject, を the object, に the goal or recipient, へ, から, まで, と, より); a
sentence without a subject is the diarist's. Qualifiers come from the grammar: auxiliary
verbs beyond tense, politeness and negation (たい, らしい, そう), adverbs (危うく, いつも),
adverbial nouns (前, 後, 全部, 一部), the conditional form (降ったら), a verb after a
quoting と (と思う), a noun a verb modifies that ends the sentence (引っ越す予定だ), an
auxiliary verb after another verb (死にかけた), and a final か. A katakana word the
analyser takes for a common noun, which the glossary gives no meaning and the dictionary
also lists as a given name (アヤ), is a person's name.

Its parts: ``analyser`` (Sudachi), ``sequence`` (what a morpheme's neighbours say of
it), ``words`` (a content word as compared), ``reader`` (the reading). The dictionary
(Apache 2.0, Works Applications) is memory-mapped on first use.
"""

from ego_mcp.memory.guard.japanese.analyser import proper_nouns, spoken, surfaces
from ego_mcp.memory.guard.japanese.reader import read

__all__ = ["proper_nouns", "read", "spoken", "surfaces"]
