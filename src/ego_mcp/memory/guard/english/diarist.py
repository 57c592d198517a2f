"""The diarist's "I", written out where a diary leaves it unsaid and the small model
misreads the verb that opens the sentence (Reminded Master to take his pills: the parse
makes "Reminded" a modifier of "Master", and Master the one who takes them; Met Aya at
the station: "Met" a name). Written out (I reminded Master to take his pills), the parse
tells the diarist's deed, as the guard reads an unwritten subject anyway ("Watched the
sunset")."""

from __future__ import annotations

from ego_mcp.memory.guard.english.pipeline import parse
from ego_mcp.memory.guard.english.roles import FINITE, NOMINAL_SUBJECTS
from ego_mcp.memory.guard.wordnet import wordnet


def with_the_diarist(text: str) -> str:
    """``text`` with "I" before each sentence that opens with a verb's past (by WordNet's
    morphology: met, reminded, baked) the parse reads as no verb heading its sentence,
    in a sentence with no finite verb of its own subject (Reminded of the deadline,
    Master hurried: a participle; United won the match: a name) and no "by" (Driven home
    by Aya: a passive), where the parse of the text so written makes each "I" the subject
    of the verb in the past after it; ``text`` itself elsewhere."""
    doc = parse(text)
    openings = [
        sentence[0].idx
        for sentence in doc.sents
        if sentence[0].is_title
        and not (sentence[0].dep_ == "ROOT" and sentence[0].pos_ in ("VERB", "AUX"))
        and _past_of_a_verb(sentence[0].text)
        and not any(t.dep_ in NOMINAL_SUBJECTS and t.head.tag_ in FINITE for t in sentence)
        and not any(t.lower_ == "by" for t in sentence)
    ]
    if not openings:
        return text
    written = text
    for start in reversed(openings):
        written = f"{written[:start]}I {written[start].lower()}{written[start + 1 :]}"
    rewritten = parse(written)
    for shift, start in enumerate(openings):
        diarist = next((t for t in rewritten if t.idx == start + 2 * shift), None)
        if (
            diarist is None
            or diarist.dep_ not in NOMINAL_SUBJECTS
            or diarist.head.i != diarist.i + 1
            or diarist.head.tag_ != "VBD"
        ):
            return text
    return written


def _past_of_a_verb(word: str) -> bool:
    """A form WordNet's morphology makes a verb's past of (met: meet, reminded: remind),
    but an irregular form in n or ne: the participles that are no past end so (broken,
    hidden, driven, done), and the few pasts that do (ran, began, won) are left with them,
    since the re-parse takes "I broken" for a past too."""
    net = wordnet()
    key = word.lower()
    if net is None or net.offsets(key, "v"):
        return False  # a verb's own base (Visit, Call): an order, or a note to do it
    if key.endswith("ed"):
        return bool(net.base_forms(key, "v"))
    return bool(net.irregular_bases(key, "v")) and not key.endswith(("n", "ne"))
