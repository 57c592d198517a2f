"""The reading of a Japanese text the guard compares: one pass over its morphemes, as a
reader takes them, binding each word to its role by the case particles and collecting
what qualifies the fact."""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from ego_mcp.memory.guard.durations import JA_UNITS
from ego_mcp.memory.guard.japanese.analyser import listed_noun, morphemes
from ego_mcp.memory.guard.japanese.sequence import (
    CONJUNCTIONS,
    FULL_STOP,
    SA,
    after_cleft_focus,
    after_predicate,
    agent_marker,
    cleft_copula,
    comma_segment,
    copulas_joined,
    denied_later,
    ends_predicate,
    evidence,
    follows_verb,
    gives_cause,
    gives_order,
    indefinite,
    least_of_all,
    light_verb_follows,
    modified_by_verb,
    modifies_noun,
    negates,
    next_is_predicate,
    nominalises,
    one_of_them,
    phrase_in,
    quotes,
    reason_relation,
    sentence_end,
    value_ends_at,
)
from ego_mcp.memory.guard.japanese.words import (
    ASPECT,
    content,
    converses_of,
    english_of,
    focus_of,
    habitual,
    opposites,
    potential,
    someone,
    universal,
    with_heads,
)
from ego_mcp.memory.guard.reading import (
    ABILITY,
    BECAUSE,
    DESPITE,
    DONE,
    FIRST_PERSON,
    FRAMED,
    HEARSAY,
    IMPERATIVE,
    NEGATIVE_POLARITY,
    NOW,
    PAST,
    REPORTED,
    STATE_NOW,
    STATE_PAST,
    UNNAMED_DOER,
    Focus,
    Reading,
    Word,
)
from ego_mcp.memory.guard.wordnet import (
    experiences,
    gives_to_someone,
    is_animate,
    is_inalienable,
    is_person,
    says,
    takes_recipient,
    wordnet,
)
from ego_mcp.memory.japanese import HIRAGANA_TO_KATAKANA

if TYPE_CHECKING:
    from sudachipy import Morpheme

# は and こそ (a focus said of the doer, as は a topic) are read as the subject.
CASE_ROLES = {
    "が": "subject", "は": "subject", "こそ": "subject", "を": "object", "に": "to",
    "へ": "to", "から": "from", "まで": "until", "と": "with", "より": "than", "の": "owner",
}  # fmt: skip
AT = "at"  # で: where or how (家で, 電車で)
NOT_ALL = "not all"  # a quantity は marks under a denial (全部は食べなかった)
TENSE_AND_POLITENESS = frozenset({"た", "だ", "です", "ます"})
COORDINATING = frozenset({"と", "や"})  # the particles that join nouns (卵と牛乳, パンや牛乳)
# The nouns by which a clause before them tells an event's time: before it, after it.
BEFORE, AFTER = "前", "後"
# The analyser's marks of a noun that する makes a verb (提案する; 反対する, 心配する, which
# are also adjectival nouns).
VERBAL_NOUNS = frozenset({"サ変可能", "サ変形状詞可能"})
# Completive verbs after a verb (書き終える, 片付け済ませる) and the adverbs of a deed
# already done: with them, ている tells the deed done, as the English perfect does.
COMPLETIVE = frozenset({"終える", "終わる", "済ませる", "済ます", "切る"})
ALREADY = frozenset({"もう", "既に", "最早"})
ABLE = "出来る"  # できる after a verbal noun or こと: the potential of any verb
VOLITIONAL = "will"  # a verb's volitional form (行こう), as English "will" qualifies
# The exceptive particle: its predicate is negative in form only (ケーキしか食べなかった:
# she ate the cake and nothing else, as ケーキだけ食べた says).
EXCEPTIVE = "しか"
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
HONORIFIC_PREFIXES = frozenset({"お", "ご", "御"})
INDEFINITE_PERSONS = frozenset({"誰", "何者"})  # with か: someone
CONDITIONAL_PARTICLES = frozenset({"ば", "なら"})


LENGTH = "a length of time"  # what a focus stands at after one (1時間だけ, 90分ほど)


def read(text: str, skip: frozenset[int]) -> Reading:
    """The Japanese of ``text``; ``skip``: characters numbers and dates cover."""
    # によって, により: one case particle, read at its に; the よる (and て) it holds are
    # no morphemes of the text, which the reader's look back and ahead must not see.
    analysed = morphemes(text)
    markers = [agent_marker(analysed, index) for index in range(len(analysed))]
    held = {at for marker in markers for at in marker}
    kept = [index for index in range(len(analysed)) if index not in held]
    reader = _Reader(
        tuple(analysed[index] for index in kept),
        skip,
        agents_at=frozenset(at for at, index in enumerate(kept) if markers[index]),
    )
    for index, m in enumerate(reader.morphemes):
        if m.begin() not in skip:
            reader.take(index, m)
        elif m.surface() in "、,":
            reader.phrase_start = len(reader.words)
    if text.rstrip().endswith(("?", "？")):
        reader.qualifiers.add("?")
    return reader.reading()


def _ordered(words: list[Word] | tuple[Word, ...]) -> frozenset[tuple[str, str]]:
    """Events 前 and 後 order, earlier first: the verb just before the noun and the
    predicate after it (食べる前に出かけた: 出掛ける, then 食べる; 食べたあと出かけた:
    食べる, then 出掛ける). 夕食の前に orders no two events."""
    found = set()
    for at, word in enumerate(words):
        if word.key not in (BEFORE, AFTER) or at == 0 or words[at - 1].pos != "v":
            continue
        main = next((w for w in words[at + 1 :] if w.pos == "v"), None)
        if main is None:
            continue
        told = words[at - 1].key
        found.add((main.key, told) if word.key == BEFORE else (told, main.key))
    return frozenset(found)


class _Reader:
    """One pass over a text's morphemes, left to right, as a reader takes them: each
    word joins the phrase its particle will end, each predicate closes a clause."""

    def __init__(
        self, morphemes: tuple[Morpheme, ...], skip: frozenset[int], agents_at: frozenset[int]
    ) -> None:
        self.morphemes = morphemes
        self.skip = skip  # the characters values cover
        self.agents_at = agents_at  # where a に stands for によって or により
        self.parts: list[int] = []  # where each part after a 、 or 。 begins, in words
        self.morphemes_at_part = 0  # and where the last one begins, in morphemes
        self.part_breaks: list[int] = []  # and the character each is cut at
        self.words: list[Word] = []
        self.qualifiers: set[str] = set()
        self.negations = 0
        self.topic = ""  # it stays across sentences: a diary's next one is still about it
        self.prefix = ""
        self.sequence = False
        self.predicates: list[str] = []
        self.phrase_start = 0
        self.closed_phrase = range(0)  # the words of the phrase the last particle ended
        self.pause_at = 0  # where the words after the last comma or full stop begin
        self.sentence_at = 0  # where the words of the sentence being read begin
        self.last_sentence = range(0)  # the words of the sentence before it
        self.clause_start = 0  # where the clause being read began
        self.last_clause = 0  # where the clause the last predicate closed began
        self.goals: list[range] = []  # the words of each に phrase
        self.agents: list[range] = []  # and of each によって or により phrase
        self.describing: set[int] = set()  # adjectives before a noun (古いカメラ)
        self.subject_at: int | None = None  # the word the open clause's が marks
        self.topic_at = -1  # where the last は named the topic
        self.quoting = False  # the last predicate read quotes a clause (と言った)
        self.exceptive = False  # しか read, its negation not yet
        self.focus: set[Focus] = set()  # each focus particle and the word it follows
        self.owner_at: int | None = None  # an owner (の) whose noun is not read yet
        self.told = ""  # the predicate that ends the clause being read (行く, 住む)
        self.past = False  # a た read since it (行った, 住んでいた), or てある
        self.state = False  # a ている since it (住んでいる, 住んでいた)
        self.done = False  # the sentence tells a deed done (書き終え, もう)
        self.tenses: set[tuple[str, str]] = set()  # each sentence's predicate, told when
        self.owned: tuple[int, int] | None = None  # a topic that may own its が noun

    def reading(self) -> Reading:
        self._close_sentence()
        words = with_heads(self.words, self.describing)
        return Reading(
            words=tuple(
                replace(word, part=1 + sum(1 for start in self.parts if start <= at))
                for at, word in enumerate(words)
            ),
            qualifiers=frozenset(self.qualifiers),
            negations=self.negations,
            sequence=tuple(self.predicates) if self.sequence else (),
            tenses=frozenset(self.tenses),
            ordered=_ordered(words),
            focus=frozenset(self.focus),
            part_breaks=tuple(self.part_breaks),
        )

    def take(self, index: int, m: Morpheme) -> None:
        pos = m.part_of_speech()
        kind = pos[0]
        if kind in ("補助記号", "空白", "記号"):
            self._mark(index, m)
            return
        if self.told and nominalises(self.morphemes, index):
            # 持っていくのを忘れた: what was forgotten keeps its tense, told apart from a
            # predicate's own (飲み忘れた: 飲む in the past)
            self.told += m.surface()
            self._record_tense()
        if kind == "接続詞":
            relation = CONJUNCTIONS.get(m.normalized_form(), "")
            if relation and self.sentence_at == len(self.words):  # 然し、…: the last one
                self._give_reason(relation, self.last_sentence)
            return
        self._conjugation(index, m)
        if kind == "助動詞" or (kind == "形容詞" and m.normalized_form() == "無い"):
            self._auxiliary(index, m)
        elif kind == "助詞":
            self._particle(index, m)
        elif kind == "接頭辞":
            self.prefix = "" if m.surface() in HONORIFIC_PREFIXES else m.surface()
        elif pos[1] == "助動詞語幹":
            self.qualifiers.add(evidence(self.morphemes, index))  # 降るそうだ, 降りそうだ
        elif self._stem_of_compound(index, m):
            self.prefix = m.surface()  # 飲み + 会: the noun 飲み会, read with the next one
        elif not self._qualifier(index, m):
            self._content_word(index, m)

    def _conjugation(self, index: int, m: Morpheme) -> None:
        """What a word's conjugated form qualifies: an order, a condition, an intention."""
        form = m.part_of_speech()[5]
        if "命令形" in form and gives_order(self.morphemes, index):
            self.qualifiers.add(IMPERATIVE)  # 行け, 勉強しなさい: an order, no deed
        if "仮定形" in form:
            self.qualifiers.add("if")  # 降ったら
        elif "意志推量形" in form:
            self.qualifiers.add(VOLITIONAL)  # 辞めよう(としている): meant, not done

    def _diarist_in_sentence(self) -> bool:
        """The sentence being read is the diarist's own word: it opens with the diarist,
        or the diarist is its first subject (私、明日行くって。; not マスターは私に明日来る
        って。nor マスターが、俺は行かないって。, where the one who speaks is named first)."""
        said = self.words[self.sentence_at :]
        first = next((w for w in said if w.role == "subject" or w.key == FIRST_PERSON), None)
        return (
            first is not None
            and first.key == FIRST_PERSON
            and (first is said[0] or first.role == "subject")
        )

    def _cleft_focus(self) -> None:
        """The phrase just read is a cleft's focus (提案したのはマスターで、/ 反対したのは
        課長だった): a person or an animal fills the gap of the clause before のは, the
        subject where that clause has none (the gap a relative clause most readily
        leaves); anything else, or where the clause names its subject, has no role
        (勉強したのは図書館だった: where, when or what, the clause does not say)."""
        focus = range(self.phrase_start, len(self.words))
        # The copula closes the focus and its clause: what follows is a clause of its own.
        self.clause_start = self.phrase_start = len(self.words)
        if not focus or not focus.start:
            return
        predicate = self.words[focus.start - 1]
        if predicate.pos not in ("v", "a") or any(
            self.words[at].role == "subject" for at in range(self.last_clause, focus.start - 1)
        ):
            return
        thing = self.words[focus[-1]]
        if thing.pos in ("v", "a") or thing.role or not someone(thing):
            return  # a place or a thing may fill any gap: a subject left unsaid is common
        self.words[focus[-1]] = replace(
            thing, role="subject", head=predicate.key, head_senses=predicate.senses
        )

    def _stem_of_compound(self, index: int, m: Morpheme) -> bool:
        """A verb's stem before a common noun that the dictionary lists with it as one
        noun: the analyser cuts 飲み会 in two in some sentences (部長を飲み会に誘った)."""
        pos = m.part_of_speech()
        if pos[0] != "動詞" or "連用形" not in pos[5] or index + 1 >= len(self.morphemes):
            return False
        following = self.morphemes[index + 1]
        if following.part_of_speech()[:2] != ("名詞", "普通名詞"):
            return False
        return listed_noun(m.surface() + following.surface())

    def _close_sentence(self) -> None:
        """At a sentence's end, the tense its last predicate is told in: the past with a
        た after it (行った, 行きました) or てある (提出してある: done), else the present or
        the future (行く); a state with いる now or past (住んでいる, 住んでいた), or a deed
        done after a completive verb or "already" (書き終えている, もう帰っている). A habit
        (毎朝走っている, いつも走る) is told in the present either way."""
        self._settle_owner(None)
        self._record_tense()
        self.exceptive = False  # a しか whose negation was not read ends with its sentence
        self.owner_at = None  # and so does an owner whose noun was not read

    def _record_tense(self) -> None:
        """Keep the tense the predicate being read is told in, and close it."""
        habit = any(habitual(w) for w in self.words[self.sentence_at :])
        if self.told:
            if self.state and not habit:
                now = DONE if self.done else STATE_NOW
                self.tenses.add((self.told, STATE_PAST if self.past else now))
            else:
                self.tenses.add((self.told, PAST if self.past else NOW))
        self.told, self.past, self.state, self.done = "", False, False, False

    def _auxiliary(self, index: int, m: Morpheme) -> None:
        base = m.normalized_form()
        if base == "た" and "仮定形" not in m.part_of_speech()[5]:
            self.past = True  # not the たら of a condition (晴れたら)
        if base in ("だ", "です") and after_cleft_focus(self.morphemes, index):
            self._cleft_focus()  # 反対したのは課長だった
        previous = self.morphemes[index - 1] if index else None
        if negates(m):
            if self.exceptive:
                self.exceptive = False  # しか…ない: "only", which the particle gave
            elif self.quoting:
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
        elif base == "てる":
            self.state = True  # 見てる, 読んでる: ている said short
        elif base not in TENSE_AND_POLITENESS and base not in ASPECT:
            self.qualifiers.add(AUXILIARY_FORMS.get(base, base))

    def _lexicalised(self, verb: Morpheme, causative: Morpheme) -> bool:
        """Whether the verb and its causative auxiliary are one verb the glossary lists
        (済ま + せる: 済ませる "finish", 知らせる "notify", 驚かせる "surprise"; not
        食べさせる, made to eat); if so, the verb just read becomes that verb."""
        last = self.words[-1] if self.words else None
        stem = verb.normalized_form()
        # The word just read must be this verb (not a quoted predicate before と知らせた),
        # and する is no stem: 勉強させた is made to study, not させる.
        if last is None or last.key != stem or last.pos != "v" or stem == "為る":
            return False
        joined = verb.surface() + causative.normalized_form()
        english = english_of(joined)
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
            opposites=opposites(english, "v"),
            converses=converses_of(english),
        )
        return True

    def _particle(self, index: int, m: Morpheme) -> None:
        surface, sub = m.surface(), m.part_of_speech()[1]
        previous = self.morphemes[index - 1] if index else None
        if self._reason_particle(index):
            return
        if surface == "も" and sub == "係助詞" and least_of_all(self.morphemes, index):
            # 一口も食べなかった, 誰も来なかった: not even one, the "any" of a denial
            if self.words and self.words[-1].surface == self.morphemes[index - 1].surface():
                self.words.pop()
            self.qualifiers.add(NEGATIVE_POLARITY)
        elif surface in CONDITIONAL_PARTICLES and sub == "接続助詞":
            self.qualifiers.add("if")
        elif surface == "か" and sub == "終助詞":
            self.qualifiers.add("?")
        elif (
            surface == "って"
            and after_predicate(self.morphemes, index)
            and (end := sentence_end(self.morphemes, index)) is not None
        ):
            # 疲れたって。休むんだって: a report, or an insistence (行くって！), never the
            # plain fact. Before a full stop or さ it reports what was heard, as そうだ
            # does (転勤なんだって。/ 転勤なさるそうです); before an exclamation mark, or
            # at the text's end, the particle alone does not say which.
            heard = end in (FULL_STOP, SA) and not self._diarist_in_sentence()
            self.qualifiers.add(HEARSAY if heard else "って")
        elif surface == "から" and previous is not None and previous.surface() in "てで":
            self.sequence = True  # 出してから行った: one thing after another
        elif surface == "で" and sub == "格助詞":
            self._de(index)
        elif surface == "の" and previous is not None and previous.surface() == "と":
            self._with_describes()  # ご主人様との契約
        elif surface == "と" and self._listing(index):
            pass  # 卵と牛乳を: the list's items take the role the phrase ends with
        elif sub in ("格助詞", "係助詞", "副助詞") and self.words and surface in CASE_ROLES:
            self._case_particle(surface, index)
        elif sub == "副助詞":
            self._focus(index, m)

    def _de(self, index: int) -> None:
        """で: the copula after a cleft's focus (提案したのはマスターで、) or joining two
        copular clauses (ケンが受付担当で、アヤが会計担当だ: no place), else where or how
        (電車で, 家で), no party's role."""
        if cleft_copula(self.morphemes, index):
            self._cleft_focus()
        elif not copulas_joined(self.morphemes, index):
            self._case_particle_at()

    def _listing(self, index: int) -> bool:
        """The と at ``index`` joins the items of a list, not a companion (卵と牛乳を買った,
        赤いかばんと青い帽子を, ケンとアヤを招いた; not ケンと映画を見た): a thing and the
        next noun phrase after it, both persons or neither."""
        if not self.words or (self.words[-1].pos != "n" and not self.words[-1].name):
            return False
        after = self.morphemes[index + 1] if index + 1 < len(self.morphemes) else None
        if after is None or after.part_of_speech()[0] not in ("名詞", "形容詞", "接頭辞"):
            return False
        item = self._next_noun(index + 1)
        if item is None:
            return False
        return someone(self.words[-1]) == someone(item)

    def _next_noun(self, index: int) -> Word | None:
        """The first noun from ``index`` on, before the next particle, as a word."""
        for m in self.morphemes[index:]:
            if m.part_of_speech()[0] in ("助詞", "補助記号"):
                return None
            if m.part_of_speech()[0] == "名詞":
                return content(m, "")
        return None

    def _focus(self, index: int, m: Morpheme) -> None:
        """A focus particle qualifies the fact by what its gloss says (``focus_of``), of
        the word it follows, if one does (マスターだけが会議に出た is not マスターは会議に
        だけ出た, nor ケンだけが来た ケンが来た; 3時間くらい is not 3時間); だけ, のみ and
        しか…ない say one "only". One of emphasis (さえ "even") changes no fact, as in
        English."""
        focus = focus_of(m.normalized_form())
        if not focus:
            return
        self.qualifiers.add(focus)
        self.exceptive = m.surface() == EXCEPTIVE
        before = self.morphemes[max(0, index - 2) : index]
        if self.words and any(b.surface() == self.words[-1].surface for b in before):
            self.focus.add(Focus(focus, self.words[-1].key))  # 会議(に)だけ: the meeting
            for word in self._coordinated(index):
                self.focus.add(Focus(focus, word.key))  # 卵と牛乳しか: each of them
        else:
            # What no word stands for, a time read as a value, a pronoun, a counter
            # (朝だけ, それだけ, ここにだけ, 3個だけ): as it is written.
            written = [b for b in before if b.part_of_speech()[0] not in ("助詞", "補助記号")]
            if written:
                # A length's unit is how the length is written (1時間半ほど, 90分ほど):
                # the focus is on the length.
                at = written[-1]
                length = at.begin() in self.skip and at.surface() in JA_UNITS
                self.focus.add(Focus(focus, LENGTH if length else at.surface()))

    def _coordinated(self, index: int) -> list[Word]:
        """The nouns joined by と or や to the one just before the particle at ``index``
        (卵と牛乳と豆腐しか: 牛乳 and 卵), whose words were read last."""
        joined: list[Word] = []
        at, read = index - 1, len(self.words) - 1
        while at >= 2 and self.morphemes[at - 1].surface() in COORDINATING:
            noun = self.morphemes[at - 2]
            if noun.part_of_speech()[0] != "名詞" or read < 1:
                break
            read -= 1
            if self.words[read].surface != noun.surface():
                break
            joined.append(self.words[read])
            at -= 2
        return joined

    def _reason_particle(self, index: int) -> bool:
        """Take the particle at ``index`` as one that gives the clause before it as a
        reason (降ったので, 雨なのに, 来たが), or as the に of のに; False if it is neither."""
        relation = reason_relation(self.morphemes, index)
        if relation:
            self._give_reason(relation, self._clause_before())
            self.phrase_start = len(self.words)  # the reason's words take no later role
            return True
        return bool(index) and reason_relation(self.morphemes, index - 1) == DESPITE

    def _with_describes(self) -> None:
        """との: the と phrase just read describes the noun after it, as an owner does
        (ご主人様との契約, the contract with Master: his contract), and takes no part in
        the verb's event as a companion would (ご主人様と契約した)."""
        if not self.closed_phrase or self.phrase_start != len(self.words):
            return
        for at in self.closed_phrase:
            if self.words[at].role == "with":
                self.words[at] = replace(self.words[at], role="owner")
        self.owner_at = self.closed_phrase[-1]

    def _case_particle(self, surface: str, index: int) -> None:
        """A case particle gives the phrase it ends its role (が, を, に...); は and a
        first が name the topic, but for a quantity under a denial, which it makes partial
        (全部は食べなかった: not all of it; 全部食べなかった: none)."""
        last = self.words[-1]
        if (
            surface == "は"
            and self.phrase_start == len(self.words) - 1
            and universal(last)
            and denied_later(self.morphemes, index)
        ):
            self.qualifiers.add(NOT_ALL)
        role = "by" if index in self.agents_at else CASE_ROLES[surface]
        self.closed_phrase = range(self.phrase_start, len(self.words))
        for at in self.closed_phrase:  # the phrase it ends
            if not self.words[at].role:
                self.words[at] = _with_role(self.words[at], role, self.topic)
        if role == "to" and surface == "に":  # へ names where to, never who did it
            self.goals.append(self.closed_phrase)
        elif role == "by":
            self.agents.append(self.closed_phrase)
        self.phrase_start = len(self.words)
        if role == "subject" and (surface == "は" or not self.topic):
            self.topic = self.words[-1].key
            if surface == "は":
                self.topic_at = len(self.words) - 1
        if surface == "が":
            self.subject_at = len(self.words) - 1
            self._topic_owns(self.closed_phrase)
        if role == "owner":
            self.owner_at = len(self.words) - 1

    def _topic_owns(self, phrase: range) -> None:
        """A topic with an attribute or a part of the body as the subject of its clause may
        be its owner (マスターは体重が68キロだ: マスターの体重は68キロだ; ケンは髪が長い), as
        the English reader reads Master's weight: noted here, settled at the predicate
        (``_settle_owner``). Any other subject after a topic is what is said of it
        (マスターは辛いものが好き); one with an owner of its own keeps it (ケンは犬の声が
        聞こえた); a topic compared with another stays the subject of the comparison
        (駅前のパン屋は商店街のパン屋より値段が高い)."""
        if not phrase or self.topic_at < self.clause_start or self.topic_at >= phrase.start:
            return
        between = range(self.topic_at + 1, phrase.start)
        if any(self.words[at].role in ("than", "subject") for at in between):
            return  # compared, or another subject nearer (アヤはケンが背が高いと言った)
        thing = self.words[phrase[-1]]
        if thing.pos != "n" or thing.name or not thing.english:
            return
        if any(w.owns == thing.key for w in self.words[self.topic_at + 1 : phrase[-1]]):
            return  # 犬の声: the thing has its owner
        if is_inalienable(thing.english[0]):
            self.owned = (self.topic_at, phrase[-1])

    def _settle_owner(self, predicate: Word | None) -> None:
        """The topic noted by ``_topic_owns`` owns its thing when the predicate tells of the
        thing alone: nothing but a value between them (体重が68キロだ, 髪が長い, 体重が2キロ
        減った), and no verb of perceiving, knowing or feeling, whose topic is the one who
        perceives (ケンは年齢が分からない, アヤは身長が気になる: another noun between)."""
        if self.owned is None:
            return
        topic_at, thing_at = self.owned
        self.owned = None
        if any(w.pos == "n" for w in self.words[thing_at + 1 :]):
            return
        if predicate is not None and predicate.pos == "v" and experiences(predicate.english):
            return
        topic, thing = self.words[topic_at], self.words[thing_at]
        self.words[topic_at] = replace(topic, role="owner", owns=thing.key)
        self.words[thing_at] = replace(thing, bound="")

    def _case_particle_at(self) -> None:
        """で gives the phrase it ends the role ``AT``, where or how the event was: no
        party, but never what the verb is done to (家でケンが作る / ケンが家を作る)."""
        for at in range(self.phrase_start, len(self.words)):
            if not self.words[at].role:
                self.words[at] = _with_role(self.words[at], AT, self.topic)
        self.phrase_start = len(self.words)

    def _clause_before(self) -> range:
        """The words of the clause a conjunctive particle ends: the one its predicate
        just closed (雨が降ったのに), or the phrase of a noun predicate (雨なのに); never
        words before a comma (行く予定で、晴れたので); the sentence before, when the
        particle opens one (雨が降った。だから…)."""
        if self.sentence_at == len(self.words):
            return self.last_sentence  # it opens a sentence (だから, だけど): the last one
        if self.clause_start == len(self.words):
            return range(max(self.last_clause, self.pause_at), len(self.words))
        return range(max(self.phrase_start, self.pause_at), len(self.words))

    def _give_reason(self, relation: str, words: range) -> None:
        """Mark ``words`` as a reason given for the event (BECAUSE, DESPITE). A topic
        named with は is taken as the event's (マスターは雨なのに出かけた), not the reason's."""
        for at in words:
            if at != self.topic_at:
                self.words[at] = replace(self.words[at], reason=relation)

    def _qualifier(self, index: int, m: Morpheme) -> bool:
        """Take ``m`` as a qualifier of the fact, if it is one (or emphasis, if that)."""
        pos, base = m.part_of_speech(), m.normalized_form()
        kind = pos[0]
        previous = self.morphemes[index - 1] if index else None
        if base in EMPHASIS or m.surface() in EMPHASIS:
            return True
        if base == ABLE and pos[1] == "非自立可能" and self._potential_of_another(index):
            self.qualifiers.add(ABILITY)  # 出社できた, 泳ぐことができる: can, as 泳げる
            return True
        if base in INDEFINITE_PERSONS and indefinite(self.morphemes, index):
            self.qualifiers.add(UNNAMED_DOER)  # 誰かが盗んだ, 何者かに盗まれた
            return True
        if (
            kind == "形容詞"
            and pos[5].startswith("連用形")
            and next_is_predicate(self.morphemes, index)
        ):
            self.qualifiers.add(base)  # 危うく死にかけた: how far, not what
            return True
        if base in ALREADY:
            self.done = True  # もう帰っている: back already, a deed done
        if kind == "動詞" and pos[1] == "非自立可能" and previous and follows_verb(previous):
            self.done = self.done or base in COMPLETIVE  # 書き終えている
            if base in FAVOUR_RECEIVED and self._swap_doer(subject_becomes="to"):
                self.qualifiers.add("favour")  # マスターに説明してもらった = 説明してくれた
            elif base in FAVOUR_TO_THE_DIARIST and not self.quoting:
                self.qualifiers.add("favour")  # done for the diarist by another
            elif base in FAVOUR_TO_THE_DIARIST:
                pass  # …と話してくれた: the telling's favour, part of the report
            elif base == "有る":
                self.past = True  # 提出してある: done, as 提出した tells it
            elif base == "居る" and previous.surface() in ("て", "で"):
                self.state = True  # 住んでいる, 書き終えている
            elif base not in ASPECT:
                self.qualifiers.add(base)  # 死にかけた, 食べてみた, 作ってもらった
            return True
        return False

    def _potential_of_another(self, index: int) -> bool:
        """Whether the できる at ``index`` is another verb's potential: after a verbal
        noun (出社できた) or after that verb's こと (泳ぐことができる, whose こと is then
        no word); not a thing that comes to be (モールができる)."""
        previous = self.morphemes[index - 1].part_of_speech() if index else ()
        if previous and previous[0] == "名詞" and previous[2] in VERBAL_NOUNS:
            return True  # pos[0] and pos[2]: a verbal noun
        before = [m.normalized_form() for m in self.morphemes[max(0, index - 2) : index]]
        if before not in (["事", "が"], ["こと", "が"]):
            return False
        if self.words and self.words[-1].surface == self.morphemes[index - 2].surface():
            self.words.pop()
        return True

    def _swap_doer(self, subject_becomes: str) -> bool:
        """The last clause's roles as the active voice gives them, its doer named by
        によって (マスターの実家は祖父によって建てられた = 祖父が実家を建てた), else by its
        first に phrase: a passive's subject is the object of the deed (マスターは部長に
        褒められた = 部長がマスターを褒めた); one who received a favour (説明してもらった)
        is its beneficiary. A passive with an object of its own has a subject who received
        it when the verb gives something to somebody in WordNet's sentence frames (企画を
        任された = 企画を任せた him), else one whose thing it was (部長にプレゼンを褒められた
        = 部長が彼のプレゼンを褒めた); one with no such phrase has an unnamed doer (財布が
        盗まれた = 誰かが財布を盗んだ, and no 財布を盗んだ). Of two に phrases the doer is one
        that names someone (散歩中にカラスにつつかれた: the crow); none where the subject is a
        thing given to the に phrase (``_thing_given``). A から phrase is no doer: it names
        the one a thing was taken from as often (財布がケンから盗まれた). A favour with an
        object, or from nobody named, is not swapped, and False is returned."""
        phrases = [r for r in self.goals if r.start >= self.last_clause]
        named = [r for r in phrases if r and someone(self.words[r[-1]])]
        agents = [r for r in self.agents if r.start >= self.last_clause]
        clause = range(self.last_clause, len(self.words))
        passive = subject_becomes == "object"
        if passive and self._thing_given(clause):
            phrases = []  # 荷物はケンに送られた: sent to Ken, by someone unnamed
        doers = next(iter(agents or (named if len(phrases) > 1 and named else phrases)), None)
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

    def _thing_given(self, clause: range) -> bool:
        """The passive clause's subject is a thing, not someone, and its verb's first
        gloss gives a thing to somebody (``gives_to_someone``: 荷物はケンに送られた, sent to
        Ken; not 財布はケンに盗まれた): its に phrase is who received it."""
        verb = self.words[-1] if self.words else None
        subjects = [self.words[i] for i in clause if self.words[i].role == "subject"]
        return (
            verb is not None
            and verb.pos == "v"
            and bool(verb.english)
            and gives_to_someone(verb.english[0])
            and bool(subjects)
            and not any(_a_being(w) for w in subjects)
            and not any(self.words[i].role == "object" for i in clause)
        )

    def _recipient_verb(self) -> bool:
        """Whether the verb just read gives something to somebody or asks somebody to do
        it, by its first gloss (送る: send; 頼む: request, 課長に出勤を頼まれた = 課長が彼に
        出勤を頼んだ; not 褒める: praise)."""
        net = wordnet()
        verb = self.words[-1] if self.words else None
        if net is None or verb is None or verb.pos != "v" or not verb.english:
            return False
        return takes_recipient(net, verb.english[0])

    def _content_word(self, index: int, m: Morpheme) -> None:
        if gives_cause(self.morphemes, index):  # 雨のせいで, 降ったおかげで
            after_no = self.morphemes[index - 1].surface() == "の"
            self._give_reason(BECAUSE, self.closed_phrase if after_no else self._clause_before())
            return
        word = content(m, self.prefix) or self._party(index, m)
        self.prefix = ""
        if word is None:
            self._light_verb(index, m)
            return
        if potential(m):
            self.qualifiers.add(ABILITY)  # 泳げる: can swim, as English "can" says
        pos = m.part_of_speech()
        previous = self.morphemes[index - 1] if index else None
        if pos[0] == "副詞" or (pos[0] == "名詞" and pos[2] == "副詞可能"):
            word = replace(word, qualifier=True)  # いつも, もう, 全部, 会議の前に, 平日は
        elif (
            pos[0] == "名詞"
            and pos[2] in VERBAL_NOUNS
            and light_verb_follows(self.morphemes, index)
        ):
            word = replace(word, pos="v")  # 出席する, 購入した: the noun is the predicate
        if pos[0] == "動詞" and quotes(self.morphemes, index):
            # マスターは…と言っていた, …と話していた: what another said, as そうだ and
            # らしい report it. The diarist's own saying (私は…と言った, or with no one
            # named), a manner or act of speech (叫ぶ, 答える, 断る), と思う and と聞いた
            # keep their own verb.
            diarist = any(w.key == FIRST_PERSON and w.role == "subject" for w in self.words)
            hearsay = self.topic_at >= 0 and not diarist and says(word.english)
            self.qualifiers.add(HEARSAY if hearsay else f"{REPORTED}{word.key}")
            self._close_sentence()  # what was said keeps its tense; the saying has none
            self.quoting = True
            return
        self.quoting = False
        if (
            pos[0] == "名詞"
            and previous is not None
            and modified_by_verb(previous)
            and ends_predicate(self.morphemes, index)
        ):
            self.qualifiers.add(f"{FRAMED}{word.key}")  # 引っ越す予定, 行くつもり
            return
        if word.pos in ("v", "a"):
            self.predicates.append(word.key)
            if modifies_noun(self.morphemes, index) or (
                word.pos == "a" and one_of_them(self.morphemes, index)
            ):
                if word.pos == "a":
                    self.describing.add(len(self.words))
            else:
                self._settle_owner(word)
                self.told, self.past, self.state = word.key, False, False
                said_of = self._bind_to_subject()
                self.last_clause = self.clause_start
                self.clause_start = self.phrase_start = len(self.words) + 1
                self.words.append(_bound(word, said_of or self.topic))
                return
        if word.pos == "n" and self.owner_at is not None:  # 由紀の母: the owner owns it
            self.words[self.owner_at] = replace(self.words[self.owner_at], owns=word.key)
            self.owner_at = None
        self.words.append(_bound(word, self.topic))

    def _party(self, index: int, m: Morpheme) -> Word | None:
        """彼, 彼女, 彼ら before a case particle of a party (と, に, を, から, へ) as a word,
        where nobody is named before it but the topic or subject it cannot stand for
        (アヤは彼と映画に行った / アヤは映画に行った: a person dropped); None where a
        name or a noun of a person stands before it (マスターの同僚が彼に貸した: him,
        Master), and for any other pronoun (それ, ここ)."""
        if m.part_of_speech()[0] != "代名詞" or index + 1 >= len(self.morphemes):
            return None
        english = english_of(m.normalized_form())
        if not THIRD_PERSONS & set(english[:GLOSSES_OF_A_PRONOUN]):
            return None  # 彼: that, that thing, he; not それ: that, it
        after, key = index + 1, m.normalized_form()
        if self.morphemes[after].part_of_speech()[:2] == ("接尾辞", "名詞的"):
            key += self.morphemes[after].normalized_form()  # 彼ら, 彼女たち: more than one
            after += 1
        if after >= len(self.morphemes) or (
            self.morphemes[after].normalized_form() not in PARTY_PARTICLES
        ):
            return None
        # The subject or topic of its own clause it cannot stand for (マスターは彼らに: not
        # Master); one named in an earlier clause it may (ケンが来た。アヤは彼に会った).
        clause = self.words[self.clause_start :]
        doers = {w.key for w in clause if w.role == "subject"}
        if self.clause_start <= self.topic_at < len(self.words):
            doers.add(self.words[self.topic_at].key)
        if any(w.key not in doers and _someone(w) for w in self.words):
            return None
        return Word(key=key, surface=m.surface(), pos="n", english=english)

    def _mark(self, index: int, m: Morpheme) -> None:
        """A mark: a comma or full stop ends a phrase (and a part, ``_joins_parts``), a full
        stop the sentence."""
        ends_sentence = m.part_of_speech()[1] == "句点" or "\n" in m.surface()
        if m.surface() in "、," or ends_sentence:
            self._settle_owner(None)  # ケンは体重が70キロで、: the clause has ended
            self.phrase_start = self.pause_at = len(self.words)
            if ends_sentence or self._joins_parts(index):
                self.parts.append(len(self.words))
                self.part_breaks.append(m.begin())
                self.morphemes_at_part = index + 1
        if m.part_of_speech()[1] == "句点":
            self._close_sentence()
            self.last_sentence = range(self.sentence_at, len(self.words))
            self.sentence_at = len(self.words)

    def _joins_parts(self, index: int) -> bool:
        """The 、 at ``index`` ends a part of its own, which says two things or more
        besides the topic, a number or a date among them (コーヒーにミルク、;
        駅でエミと、; 九時にエミと、; 健太さんが冷蔵庫を運び、; 白い車はご主人様ので、),
        not one thing of a list (台所、風呂場を) nor a pause after a phrase (マスターは
        九時に、; 昨日、)."""
        start = self.parts[-1] if self.parts else 0
        said = [w for at, w in enumerate(self.words[start:], start) if at != self.topic_at]
        first = self.morphemes_at_part
        values = {m.begin() for m in self.morphemes[first:index] if m.begin() in self.skip}
        if len(said) + bool(values) < 2:
            return False
        before = self.morphemes[index - 1]
        if before.part_of_speech()[0] != "名詞" or value_ends_at(
            self.morphemes, self.skip, index - 1
        ):
            return True
        # A bare noun before the 、 ends a part only where both sides of it are told
        # alike, a phrase and a noun (コーヒーにミルク、紅茶に砂糖を); else it is an item
        # of a list (庭にミント、トマト、バジルを植えた).
        return phrase_in(comma_segment(self.morphemes, index, -1)) and phrase_in(
            comma_segment(self.morphemes, index, 1)
        )

    def _light_verb(self, index: int, m: Morpheme) -> None:
        """A する after an object (ダイエットをしていた): the noun it does is what is told,
        in its tense, as in ダイエットしていた."""
        after_object = index > 0 and self.morphemes[index - 1].surface() == "を"
        if m.normalized_form() in ("為る", "為さる") and self.words and after_object:
            self.told, self.past, self.state = self.words[-1].key, False, False

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


# The English a third person's pronoun glosses as (彼: he, 彼女: she, 彼ら: they), and the
# case particles after which it is a party to the event.
THIRD_PERSONS = frozenset({"he", "she", "they", "him", "her", "them"})
PARTY_PARTICLES = frozenset({"と", "に", "を", "から", "へ"})
GLOSSES_OF_A_PRONOUN = 3


def _someone(word: Word) -> bool:
    """A name of a person, or a noun WordNet files as one (マスター, 同僚, 母)."""
    return word.name == "person" or (not word.name and any(map(is_person, word.english)))


def _a_being(word: Word) -> bool:
    """Someone, the diarist, or a noun whose first gloss's first word is a person or an
    animal (犬, whose gloss "dog (Canis (lupus) familiaris)" is read as dog_familiaris)."""
    first = word.english[0].split("_")[0] if word.english else ""
    return someone(word) or word.key == FIRST_PERSON or (bool(first) and is_animate(first))
