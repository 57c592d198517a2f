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

The dictionary (Apache 2.0, Works Applications) is memory-mapped on first use.
"""

from __future__ import annotations

import threading
from dataclasses import replace
from functools import cache, lru_cache
from typing import TYPE_CHECKING

from ego_mcp.memory.guard.glosses import glosses
from ego_mcp.memory.guard.reading import (
    FIRST_PERSON,
    FRAMED,
    HEARSAY,
    REPORTED,
    UNNAMED_DOER,
    Reading,
    Word,
)
from ego_mcp.memory.guard.wordnet import ANTONYM, converses, takes_recipient, wordnet
from ego_mcp.memory.japanese import HIRAGANA_TO_KATAKANA

if TYPE_CHECKING:
    from sudachipy import Dictionary, Morpheme, Tokenizer

CASE_ROLES = {
    "が": "subject", "は": "subject", "を": "object", "に": "to", "へ": "to", "から": "from",
    "まで": "until", "と": "with", "より": "than", "の": "owner",
}  # fmt: skip
TENSE_AND_POLITENESS = frozenset({"た", "だ", "です", "ます"})
NEGATIONS = frozenset({"ない", "ぬ", "ん", "ず"})
ASPECT = frozenset(
    {"いる", "ある", "おく", "しまう", "居る", "有る", "置く", "仕舞う", "為る", "てる", "とる",
     "ちゃう", "じゃう", "とく"}
)  # fmt: skip
# Auxiliaries of one meaning written two ways: passive or potential, causative, hearsay.
AUXILIARY_FORMS = {"られる": "れる", "させる": "せる", "らしい": HEARSAY, "そう": HEARSAY,
                   "よう": HEARSAY, "みたい": HEARSAY}  # fmt: skip
# Adverbs of degree and emphasis that change no fact (closed class).
EMPHASIS = frozenset(
    {"とても", "迚も", "すごく", "凄く", "かなり", "結構", "けっこう", "本当", "大変", "非常",
     "ちょっと", "少し", "すこし", "もっと", "割と", "なかなか", "随分"}
)  # fmt: skip
PASSIVE = frozenset({"れる", "られる"})
CAUSATIVE = frozenset({"せる", "させる"})
# Auxiliaries of favour after て: one done for the diarist (教えてくれた) and one received
# from a doer its に names (マスターに説明してもらった, as a passive names it) are one
# favour; received from nobody named (作ってもらった) or given (作ってあげた) they stay
# what they are, and none is the bare deed (作った).
FAVOUR_TO_THE_DIARIST = frozenset({"呉れる", "下さる"})
FAVOUR_RECEIVED = frozenset({"貰う", "頂く"})
FIRST_PERSON_WORDS = frozenset({"私", "わたし", "僕", "ぼく", "俺", "おれ", "あたし", "自分"})
HONORIFIC_PREFIXES = frozenset({"お", "ご", "御"})
INDEFINITE_PERSONS = frozenset({"誰", "何者"})  # with か: someone
NEGATING_PREFIXES = frozenset({"不", "非", "未", "無"})  # Sino-Japanese negation (接頭辞)
CONDITIONAL_PARTICLES = frozenset({"ば", "なら"})
QUOTATIVES = frozenset({"と", "って"})  # the particles that quote what was said or thought
NAME_KINDS = {"人名": "person", "地名": "place"}

_lock = threading.Lock()


@cache
def _dictionary() -> Dictionary:
    from sudachipy import Dictionary

    return Dictionary(dict="core")


@cache
def _tokenizer() -> Tokenizer:
    from sudachipy import SplitMode

    return _dictionary().tokenizer(SplitMode.C)


@lru_cache(maxsize=1024)
def _katakana_given_name(surface: str) -> bool:
    """Whether a word in katakana that the analyser took for a common noun is also a
    given name in the dictionary (アヤ: 綾 "twill", and a name)."""
    if not all("ァ" <= c <= "ヶ" or c == "ー" for c in surface):
        return False
    with _lock:
        entries = [m.part_of_speech() for m in _dictionary().lookup(surface)]
    return any(pos[1:3] == ("固有名詞", "人名") for pos in entries)


@lru_cache(maxsize=512)
def _morphemes(text: str) -> tuple[Morpheme, ...]:
    with _lock:
        return tuple(_tokenizer().tokenize(text))


def surfaces(text: str) -> tuple[str, ...]:
    """``text`` cut into its words, as written."""
    return tuple(m.surface() for m in _morphemes(text))


def read(text: str, skip: frozenset[int]) -> Reading:
    """The Japanese of ``text``; ``skip``: characters numbers and dates cover."""
    reader = _Reader(_morphemes(text))
    for index, m in enumerate(reader.morphemes):
        if m.begin() not in skip:
            reader.take(index, m)
        elif m.surface() in "、,":
            reader.phrase_start = len(reader.words)
    if text.rstrip().endswith(("?", "？")):
        reader.qualifiers.add("?")
    return reader.reading()


class _Reader:
    """One pass over a text's morphemes, left to right, as a reader takes them: each
    word joins the phrase its particle will end, each predicate closes a clause."""

    def __init__(self, morphemes: tuple[Morpheme, ...]) -> None:
        self.morphemes = morphemes
        self.words: list[Word] = []
        self.qualifiers: set[str] = set()
        self.negations = 0
        self.topic = ""  # it stays across sentences: a diary's next one is still about it
        self.prefix = ""
        self.sequence = False
        self.predicates: list[str] = []
        self.phrase_start = 0
        self.clause_start = 0  # where the clause being read began
        self.last_clause = 0  # where the clause the last predicate closed began
        self.goals: list[range] = []  # the words of each に or へ phrase
        self.describing: set[int] = set()  # adjectives before a noun (古いカメラ)
        self.subject_at: int | None = None  # the word the open clause's が marks
        self.topic_at = -1  # where the last は named the topic
        self.quoting = False  # the last predicate read quotes a clause (と言った)

    def reading(self) -> Reading:
        return Reading(
            words=_with_heads(self.words, self.describing),
            qualifiers=frozenset(self.qualifiers),
            negations=self.negations,
            sequence=tuple(self.predicates) if self.sequence else (),
        )

    def take(self, index: int, m: Morpheme) -> None:
        pos = m.part_of_speech()
        kind = pos[0]
        if kind in ("補助記号", "空白", "記号"):
            if m.surface() in "、,":
                self.phrase_start = len(self.words)
            return
        if "仮定形" in pos[5]:
            self.qualifiers.add("if")  # 降ったら
        if kind == "助動詞" or (kind == "形容詞" and m.normalized_form() == "無い"):
            self._auxiliary(index, m)
        elif kind == "助詞":
            self._particle(index, m)
        elif kind == "接頭辞":
            self.prefix = "" if m.surface() in HONORIFIC_PREFIXES else m.surface()
        elif pos[1] == "助動詞語幹":
            self.qualifiers.add(_evidence(self.morphemes, index))  # 降るそうだ, 降りそうだ
        elif not self._qualifier(index, m):
            self._content_word(index, m)

    def _auxiliary(self, index: int, m: Morpheme) -> None:
        base = m.normalized_form()
        previous = self.morphemes[index - 1] if index else None
        if m.dictionary_form() in NEGATIONS or base in NEGATIONS or base == "無い":
            if self.quoting:
                self.negations += 1  # 来ると言わなかった: the saying is denied, not 来る
            elif self.words and self.words[-1].pos in ("v", "a", "n"):
                last = self.words[-1]
                self.words[-1] = replace(last, negated=not last.negated)
            else:
                self.negations += 1
        elif base in PASSIVE and previous is not None and previous.part_of_speech()[0] == "動詞":
            self._swap_doer(subject_becomes="object")
        elif base in CAUSATIVE and previous is not None and self._lexicalised(previous, m):
            pass  # 済ませた, 知らせた, 驚かせた: a verb of its own, no causative
        elif base not in TENSE_AND_POLITENESS and base not in ASPECT:
            self.qualifiers.add(AUXILIARY_FORMS.get(base, base))

    def _lexicalised(self, verb: Morpheme, causative: Morpheme) -> bool:
        """Whether the verb and its causative auxiliary are one verb the glossary lists
        (済ま + せる: 済ませる "finish", 知らせる "notify", 驚かせる "surprise"; not
        食べさせる, made to eat); if so, the verb just read becomes that verb."""
        last = self.words[-1] if self.words else None
        joined = verb.surface() + causative.normalized_form()
        reader = glosses()
        # The word just read must be this verb (not a quoted predicate before と知らせた),
        # and する is no stem: 勉強させた is made to study, not させる.
        this_verb = last is not None and last.key == verb.normalized_form()
        if last is None or not this_verb or last.pos != "v" or reader is None:
            return False
        if verb.normalized_form() == "為る":
            return False
        english = reader.of(joined, "")
        if not english:
            return False
        reading = (causative.reading_form() or causative.surface()).translate(HIRAGANA_TO_KATAKANA)
        self.words[-1] = replace(
            last,
            key=joined,
            surface=last.surface + causative.surface(),
            senses=frozenset(),
            english=english,
            reading=last.reading + reading,
            opposites=_opposites(english, "v"),
            converses=_converses(english),
        )
        return True

    def _particle(self, index: int, m: Morpheme) -> None:
        surface, sub = m.surface(), m.part_of_speech()[1]
        previous = self.morphemes[index - 1] if index else None
        if surface in CONDITIONAL_PARTICLES and sub == "接続助詞":
            self.qualifiers.add("if")
        elif surface == "か" and sub == "終助詞":
            self.qualifiers.add("?")
        elif (
            surface == "って"
            and _after_predicate(self.morphemes, index)
            and _ends(self.morphemes, index)
        ):
            # 疲れたって。休むんだって: a report, or an insistence (行くって！), never the
            # plain fact; which of the two, the particle alone does not say.
            self.qualifiers.add("って")
        elif surface == "から" and previous is not None and previous.surface() in "てで":
            self.sequence = True  # 出してから行った: one thing after another
        elif surface == "で" and sub == "格助詞":
            self.phrase_start = len(self.words)  # 電車で: where or how, no party's role
        elif sub in ("格助詞", "係助詞", "副助詞") and self.words and surface in CASE_ROLES:
            role = CASE_ROLES[surface]
            for at in range(self.phrase_start, len(self.words)):  # the phrase it ends
                if not self.words[at].role:
                    self.words[at] = _with_role(self.words[at], role, self.topic)
            if role == "to":
                self.goals.append(range(self.phrase_start, len(self.words)))
            self.phrase_start = len(self.words)
            if role == "subject" and (surface == "は" or not self.topic):
                self.topic = self.words[-1].key
                if surface == "は":
                    self.topic_at = len(self.words) - 1
            if surface == "が":
                self.subject_at = len(self.words) - 1

    def _qualifier(self, index: int, m: Morpheme) -> bool:
        """Take ``m`` as a qualifier of the fact, if it is one (or emphasis, if that)."""
        pos, base = m.part_of_speech(), m.normalized_form()
        kind = pos[0]
        previous = self.morphemes[index - 1] if index else None
        if base in EMPHASIS or m.surface() in EMPHASIS:
            return True
        if base in INDEFINITE_PERSONS and _indefinite(self.morphemes, index):
            self.qualifiers.add(UNNAMED_DOER)  # 誰かが盗んだ, 何者かに盗まれた
            return True
        if (
            kind == "形容詞"
            and pos[5].startswith("連用形")
            and _next_is_predicate(self.morphemes, index)
        ):
            self.qualifiers.add(base)  # 危うく死にかけた: how far, not what
            return True
        if kind == "動詞" and pos[1] == "非自立可能" and previous and _follows_verb(previous):
            if base in FAVOUR_RECEIVED and self._swap_doer(subject_becomes="to"):
                self.qualifiers.add("favour")  # マスターに説明してもらった = 説明してくれた
            elif base in FAVOUR_TO_THE_DIARIST:
                self.qualifiers.add("favour")  # done for the diarist by another
            elif base not in ASPECT:
                self.qualifiers.add(base)  # 死にかけた, 食べてみた, 作ってもらった
            return True
        return False

    def _swap_doer(self, subject_becomes: str) -> bool:
        """The last clause's roles as the active voice gives them, its first に phrase
        the doer: a passive's subject is the object of the deed (マスターは部長に褒められた
        = 部長がマスターを褒めた); one who received a favour (説明してもらった) is its
        beneficiary. A passive with an object of its own has a subject who received it
        when the verb gives something to somebody in WordNet's sentence frames (企画を
        任された = 企画を任せた him), else one whose thing it was (部長にプレゼンを褒められた
        = 部長が彼のプレゼンを褒めた); one with no に phrase has an unnamed doer (財布が
        盗まれた = 誰かが財布を盗んだ, and no 財布を盗んだ). A favour with an object, or from
        nobody named, is not swapped, and False is returned."""
        doers = next((r for r in self.goals if r.start >= self.last_clause), None)
        clause = range(self.last_clause, len(self.words))
        passive = subject_becomes == "object"
        if any(self.words[i].role == "object" for i in clause):
            if not passive:
                return False
            subject_becomes = "to" if self._recipient_verb() else "owner"
        if doers is None:
            if not passive:
                return False
            self.qualifiers.add(UNNAMED_DOER)
            doers = range(0)
        for i in clause:
            word = self.words[i]
            if i in doers:
                self.words[i] = replace(word, role="subject")
            elif word.role == "subject":
                self.words[i] = replace(word, role=subject_becomes)
        return True

    def _recipient_verb(self) -> bool:
        """Whether the verb just read gives something to somebody, by its first gloss
        (褒める: praise, not commend; 送る: send)."""
        net = wordnet()
        verb = self.words[-1] if self.words else None
        if net is None or verb is None or verb.pos != "v" or not verb.english:
            return False
        return takes_recipient(net, verb.english[0])

    def _content_word(self, index: int, m: Morpheme) -> None:
        word = _content(m, self.prefix)
        self.prefix = ""
        if word is None:
            return
        pos = m.part_of_speech()
        previous = self.morphemes[index - 1] if index else None
        if pos[0] == "副詞" or (pos[0] == "名詞" and pos[2] == "副詞可能"):
            word = replace(word, qualifier=True)  # いつも, もう, 全部, 会議の前に, 平日は
        elif (
            pos[0] == "名詞" and pos[2] == "サ変可能" and _light_verb_follows(self.morphemes, index)
        ):
            word = replace(word, pos="v")  # 出席する, 購入した: the noun is the predicate
        if pos[0] == "動詞" and _quotes(self.morphemes, index):
            # マスターは…と言っていた, …と話していた: what another said, as そうだ and
            # らしい report it. The diarist's own saying (私は…と言った, or with no one
            # named), a manner or act of speech (叫ぶ, 答える, 断る), と思う and と聞いた
            # keep their own verb.
            diarist = any(w.key == FIRST_PERSON and w.role == "subject" for w in self.words)
            hearsay = self.topic_at >= 0 and not diarist and _says(word.english)
            self.qualifiers.add(HEARSAY if hearsay else f"{REPORTED}{word.key}")
            self.quoting = True
            return
        self.quoting = False
        if (
            pos[0] == "名詞"
            and previous is not None
            and _modified_by_verb(previous)
            and _ends_predicate(self.morphemes, index)
        ):
            self.qualifiers.add(f"{FRAMED}{word.key}")  # 引っ越す予定, 行くつもり
            return
        if word.pos in ("v", "a"):
            self.predicates.append(word.key)
            if _modifies_noun(self.morphemes, index):
                if word.pos == "a":
                    self.describing.add(len(self.words))
            else:
                said_of = self._bind_to_subject()
                self.last_clause = self.clause_start
                self.clause_start = self.phrase_start = len(self.words) + 1
                self.words.append(_bound(word, said_of or self.topic))
                return
        self.words.append(_bound(word, self.topic))

    def _bind_to_subject(self) -> str:
        """Bind the words of the clause now closing to its が subject, which is who the
        clause is about under any topic (引っ越しでは、健太さんが冷蔵庫を運び、翔さんが
        洗濯機を運んだ: the fridge is Kenta's to carry); returns whom its predicate is
        said of: the topic this clause names with は (ケンは髪が長く: Ken's hair is long,
        Ken is), else its が subject (雨が降ってきた), else "" (the topic before it)."""
        subject, self.subject_at = self.subject_at, None
        if self.topic_at >= self.clause_start:
            return self.topic
        if subject is None or subject < self.clause_start:
            return ""
        key = self.words[subject].key
        for at in range(self.clause_start, len(self.words)):
            if at != subject and self.words[at].role != "subject":
                self.words[at] = replace(self.words[at], bound=key)
        return key


def _bound(word: Word, topic: str) -> Word:
    """``word`` bound to the topic it is said of (ご主人様は辛いものが好きで、奥さんは...)."""
    return replace(word, bound="" if not topic or word.key == topic else topic)


def _with_role(word: Word, role: str, topic: str) -> Word:
    """A word of a phrase its particle ends, bound to the topic unless it is the topic:
    under a topic, が marks what is said of it (ご主人様は辛いものが好き)."""
    return replace(word, role=role, bound="" if not topic or word.key == topic else topic)


def _with_heads(words: list[Word], describing: set[int]) -> tuple[Word, ...]:
    """Each word with the predicate after it (Japanese is head-final); an adjective that
    only describes a noun (ケンに古いカメラを売った) is no predicate of the words before it."""
    found: list[Word] = []
    for index, word in enumerate(words):
        head = next(
            (
                w
                for at, w in enumerate(words[index + 1 :], index + 1)
                if w.pos in ("v", "a") and w.key != word.key and at not in describing
            ),
            None,
        )
        found.append(replace(word, head=head.key, head_senses=head.senses) if head else word)
    return tuple(found)


def _content(m: Morpheme, prefix: str) -> Word | None:
    pos = m.part_of_speech()
    kind, sub = pos[0], pos[1]
    surface = m.surface()
    if kind == "代名詞":
        if surface in FIRST_PERSON_WORDS:
            return Word(key=FIRST_PERSON, surface=surface)
        return None
    if kind == "名詞" and sub in ("数詞", "助数詞可能") and pos[2] != "一般":
        return None
    if kind not in ("名詞", "動詞", "形容詞", "形状詞", "副詞"):
        return None
    if kind in ("動詞", "形容詞") and sub == "非自立可能" and m.normalized_form() in ASPECT:
        return None  # する, いる, ある on their own: tense and aspect, no fact
    key = prefix + m.normalized_form().rstrip("ー")
    wordnet_pos = {"名詞": "n", "動詞": "v", "形容詞": "a", "形状詞": "a", "副詞": "r"}[kind]
    # The analyser's reading picks among a written form's entries (夫: おっと, not つま);
    # it is the written word's own only where the word is not inflected.
    read_as = m.reading_form() if surface == m.dictionary_form() and not prefix else ""
    english = _english(
        m.dictionary_form() if not prefix else key, m.normalized_form(), reading=read_as
    )
    reading = (m.reading_form() or surface).translate(HIRAGANA_TO_KATAKANA).rstrip("ー")
    name = NAME_KINDS.get(pos[2], "name") if sub == "固有名詞" else ""
    if kind == "名詞" and not name and not english and _katakana_given_name(surface):
        name = "person"  # a katakana word with no meaning in the glossary, listed as a name
    return Word(
        key=key,
        surface=surface,
        pos=wordnet_pos,
        name=name,
        senses=frozenset(f"ja{group}" for group in m.synonym_group_ids()),
        reading=_reading_of_prefix(prefix) + reading,
        english=english,
        opposites=_opposites(english, wordnet_pos) | _negated_stem(key),
        converses=_converses(english) if wordnet_pos == "v" else frozenset(),
    )


def _english(*forms: str, reading: str = "") -> tuple[str, ...]:
    """The word's English glosses (JMdict's first senses), by any of its forms, of the
    entries read ``reading`` where it is given and some are."""
    reader = glosses()
    if reader is None:
        return ()
    found: dict[str, None] = {}
    for form in dict.fromkeys(forms):
        found.update(dict.fromkeys(reader.of(form, reading)))
    return tuple(found)


def _opposites(english: tuple[str, ...], pos: str) -> frozenset[str]:
    """WordNet's antonyms of the word's glosses (覚える "remember" / 忘れる "forget")."""
    net = wordnet()
    if net is None:
        return frozenset()
    # A gloss may be another part of speech than the word (出席: "attendance").
    return frozenset(
        a for gloss in english for part in dict.fromkeys((pos, "n", "v", "a"))
        for a in net.related(gloss, part, ANTONYM, whole_synsets=part == "v")
    )  # fmt: skip


def _negated_stem(key: str) -> frozenset[str]:
    """What a word with a negating prefix denies (不合格 / 合格, 未完成 / 完成, 非公開 /
    公開): the prefix is grammar's, its stem the opposite (two kanji at least,
    so 不安 is not read as "not 安")."""
    if len(key) >= 3 and key[0] in NEGATING_PREFIXES:
        return frozenset({key[1:]})
    return frozenset()


@lru_cache(maxsize=16384)
def _converses(english: tuple[str, ...]) -> frozenset[str]:
    """The converse verbs of the word's glosses (教える "teach" / 習う "learn")."""
    net = wordnet()
    if net is None:
        return frozenset()
    return frozenset(c for gloss in english for c in converses(net, gloss))


def _reading_of_prefix(prefix: str) -> str:
    if not prefix:
        return ""
    return "".join((m.reading_form() or m.surface()) for m in _morphemes(prefix)).translate(
        HIRAGANA_TO_KATAKANA
    )


def _evidence(morphemes: tuple[Morpheme, ...], index: int) -> str:
    """What the stem of an auxiliary (そう, よう, みたい) says of the fact: "hearsay" after
    a predicate's plain form (降るそうだ, 忙しいそうだ) and for よう and みたい (降ったようだ),
    the same as らしい; else "looks" (降りそうだ, 忙しそうだ, 元気そうだ: as it appears)."""
    previous = morphemes[index - 1] if index else None
    if morphemes[index].surface() != "そう":
        return HEARSAY
    plain = previous is not None and previous.part_of_speech()[5].startswith(("終止形", "連体形"))
    after_copula = previous is not None and previous.part_of_speech()[0] == "助動詞"
    return HEARSAY if plain or after_copula else "looks"


def _indefinite(morphemes: tuple[Morpheme, ...], index: int) -> bool:
    """Whether the word at ``index`` is made indefinite by a following か (誰か)."""
    following = morphemes[index + 1] if index + 1 < len(morphemes) else None
    return following is not None and following.surface() == "か"


def _follows_verb(previous: Morpheme) -> bool:
    kind = previous.part_of_speech()[0]
    return kind == "動詞" or (kind == "助詞" and previous.surface() in ("て", "で"))


def _quotes(morphemes: tuple[Morpheme, ...], index: int) -> bool:
    """A verb after a quoting と or って that follows a predicate: と思う, と言った,
    行くって言ってた (not 太郎と行った)."""
    if index < 2 or morphemes[index - 1].surface() not in QUOTATIVES:
        return False
    return _after_predicate(morphemes, index - 1)


def _after_predicate(morphemes: tuple[Morpheme, ...], index: int) -> bool:
    """The word before ``index`` ends a predicate (a verb, an auxiliary, an adjective),
    inside closing brackets or not (「来る」と言った)."""
    before = index - 1
    while before >= 0 and morphemes[before].part_of_speech()[1] == "括弧閉":
        before -= 1
    return before >= 0 and morphemes[before].part_of_speech()[0] in ("動詞", "助動詞", "形容詞")


def _ends(morphemes: tuple[Morpheme, ...], index: int) -> bool:
    """Nothing but punctuation or a sentence-final particle follows ``index`` in its
    sentence (疲れたって。, 来るってさ, 疲れたって（笑）)."""
    for after in morphemes[index + 1 :]:
        kind, sub = after.part_of_speech()[:2]
        if sub in ("句点", "括弧開") or after.surface() in "!?！？" or "\n" in after.surface():
            return True  # an aside in brackets after it ends it too: 疲れたって（笑）
        if not (kind in ("補助記号", "記号", "空白") or sub == "終助詞"):
            return False
    return True


# The verbs that report speech and say nothing of its manner or act: WordNet's first
# senses of "say" (state, say, tell) and "talk" (talk, speak), as grammars list the
# neutral reporting verbs; shout, whisper, answer, refuse, order tell more.
REPORTING_VERBS = ("say", "talk")


def _says(english: tuple[str, ...]) -> bool:
    """The verb reports speech: its first gloss's most frequent WordNet sense is that
    of "say" or of "talk" (言う: say, 話す: talk, 述べる: state; not 叫ぶ: shout, 思う:
    think, 聞く: hear)."""
    net = wordnet()
    if net is None or not english:
        return False
    first = net.offsets(english[0], "v")[:1]
    reporting = {net.offsets(verb, "v")[0] for verb in REPORTING_VERBS}
    return bool(first) and first[0] in reporting


def _ends_predicate(morphemes: tuple[Morpheme, ...], index: int) -> bool:
    """The noun is the sentence's predicate: the copula or the end follows it (引っ越す
    予定だ, 行くつもり。), where a noun a verb only describes goes on (疲れた声で, 買った本を,
    作るとき、)."""
    after = morphemes[index + 1] if index + 1 < len(morphemes) else None
    return after is None or after.part_of_speech()[0] == "助動詞" or after.surface() in "。！？!?"


def _modified_by_verb(previous: Morpheme) -> bool:
    pos = previous.part_of_speech()
    return pos[0] in ("動詞", "助動詞") and pos[5].startswith("連体形")


def _modifies_noun(morphemes: tuple[Morpheme, ...], index: int) -> bool:
    """A predicate in its attributive form before a noun (新しい部屋, 買った本)."""
    after = morphemes[index + 1 : index + 3]
    nouns = [m for m in after if m.part_of_speech()[0] == "名詞"]
    return bool(nouns) and morphemes[index].part_of_speech()[5].startswith("連体形")


def _light_verb_follows(morphemes: tuple[Morpheme, ...], index: int) -> bool:
    """する after a verbal noun (出席する, 購入した)."""
    return index + 1 < len(morphemes) and morphemes[index + 1].normalized_form() == "為る"


def _next_is_predicate(morphemes: tuple[Morpheme, ...], index: int) -> bool:
    return index + 1 < len(morphemes) and morphemes[index + 1].part_of_speech()[0] == "動詞"
