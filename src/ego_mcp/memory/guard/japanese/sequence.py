"""What a morpheme's neighbours say of it: a quote, a sentence's end, a predicate that
modifies a noun, the evidence an auxiliary's stem gives. Functions of the morphemes (and,
for a causative, of the dictionary's verbs)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ego_mcp.memory.guard.japanese.analyser import lexical_causative
from ego_mcp.memory.guard.reading import BECAUSE, DESPITE, HEARSAY

if TYPE_CHECKING:
    from sudachipy import Morpheme

QUOTATIVES = frozenset({"と", "って"})  # the particles that quote what was said or thought
# Conjunctive particles that give the clause before them as what the event happened in
# spite of (降ったが, 雨だけど); から gives it as the cause (降ったから).
CONCESSIVE_PARTICLES = frozenset({"が", "けど", "けれど", "けども", "けれども"})
# Formal nouns that make the phrase before them the cause (雨のせいで, 雨のおかげで), by
# Sudachi's normalised form; ため is left out: it tells a purpose as often.
CAUSE_NOUNS = frozenset({"せい", "御陰"})


def evidence(morphemes: tuple[Morpheme, ...], index: int) -> str:
    """What the stem of an auxiliary (そう, よう, みたい) says of the fact: "hearsay" after
    a predicate's plain form (降るそうだ, 忙しいそうだ) and for よう and みたい (降ったようだ),
    the same as らしい; else "looks" (降りそうだ, 忙しそうだ, 元気そうだ: as it appears)."""
    previous = morphemes[index - 1] if index else None
    if morphemes[index].surface() != "そう":
        return HEARSAY
    plain = previous is not None and previous.part_of_speech()[5].startswith(("終止形", "連体形"))
    after_copula = previous is not None and previous.part_of_speech()[0] == "助動詞"
    return HEARSAY if plain or after_copula else "looks"


def indefinite(morphemes: tuple[Morpheme, ...], index: int) -> bool:
    """Whether the word at ``index`` is made indefinite by a following か (誰か)."""
    following = morphemes[index + 1] if index + 1 < len(morphemes) else None
    return following is not None and following.surface() == "か"


def follows_verb(previous: Morpheme) -> bool:
    kind = previous.part_of_speech()[0]
    return kind == "動詞" or (kind == "助詞" and previous.surface() in ("て", "で"))


def quotes(morphemes: tuple[Morpheme, ...], index: int) -> bool:
    """A verb after a quoting と or って that follows a predicate: と思う, と言った,
    行くって言ってた (not 太郎と行った)."""
    if index < 2 or morphemes[index - 1].surface() not in QUOTATIVES:
        return False
    return after_predicate(morphemes, index - 1)


def after_predicate(morphemes: tuple[Morpheme, ...], index: int) -> bool:
    """The word before ``index`` ends a predicate (a verb, an auxiliary, an adjective),
    inside closing brackets or not (「来る」と言った)."""
    before = index - 1
    while before >= 0 and morphemes[before].part_of_speech()[1] == "括弧閉":
        before -= 1
    return before >= 0 and morphemes[before].part_of_speech()[0] in ("動詞", "助動詞", "形容詞")


# How a sentence ends after a word (``sentence_end``): a full stop, an exclamation or a
# question mark, an aside in brackets, a line break, the text's end; or with さ before
# any of these, which tells a report (来るってさ).
FULL_STOP, EXCLAIMED, ASIDE, LINE_BREAK, TEXT_END, SA = "。", "！", "（", "\n", "", "さ"


def sentence_end(morphemes: tuple[Morpheme, ...], index: int) -> str | None:
    """How the sentence of ``index`` ends where nothing but punctuation or a
    sentence-final particle follows it (疲れたって。: FULL_STOP, 来るってさ: SA, 行くって！:
    EXCLAIMED, 疲れたって（笑）: ASIDE, an aside in brackets ends it too); None where words
    follow."""
    said = ""
    for after in morphemes[index + 1 :]:
        kind, sub = after.part_of_speech()[:2]
        surface = after.surface()
        if surface in "!?！？":
            return said or EXCLAIMED
        if sub in ("句点", "括弧開") or "\n" in surface:
            kept = FULL_STOP if sub == "句点" else ASIDE if sub == "括弧開" else LINE_BREAK
            return said or kept
        if not (kind in ("補助記号", "記号", "空白") or sub == "終助詞"):
            return None
        if surface == SA and sub == "終助詞":
            said = SA
    return said or TEXT_END


def gives_order(morphemes: tuple[Morpheme, ...], index: int) -> bool:
    """The verb in its imperative form at ``index`` gives an order: it ends its sentence
    or is quoted (行け。, 勉強しなさいと言った, 「お帰りなさい」, 来いって); not a
    concessive of a fixed phrase (いずれにせよ、, 誰であれ、) nor an adjective's old
    imperative (よかれと)."""
    if morphemes[index].part_of_speech()[0] not in ("動詞", "助動詞"):
        return False
    after = morphemes[index + 1] if index + 1 < len(morphemes) else None
    return (
        after is None
        or after.part_of_speech()[1] in ("句点", "括弧閉")
        or (after.surface() in "!！" or after.surface() in QUOTATIVES)
    )


def ends_predicate(morphemes: tuple[Morpheme, ...], index: int) -> bool:
    """The noun is the sentence's predicate: the copula or the end follows it (引っ越す
    予定だ, 行くつもり。), where a noun a verb only describes goes on (疲れた声で, 買った本を,
    作るとき、)."""
    after = morphemes[index + 1] if index + 1 < len(morphemes) else None
    return after is None or after.part_of_speech()[0] == "助動詞" or after.surface() in "。！？!?"


def modified_by_verb(previous: Morpheme) -> bool:
    pos = previous.part_of_speech()
    return pos[0] in ("動詞", "助動詞") and pos[5].startswith("連体形")


def modifies_noun(morphemes: tuple[Morpheme, ...], index: int) -> bool:
    """A predicate in its attributive form before a noun (新しい部屋, 買った本), or an
    adjectival noun written straight before one, as a compound's first part (新規事業,
    簡単料理: no な, no predicate)."""
    after = morphemes[index + 1 : index + 3]
    nouns = [m for m in after if m.part_of_speech()[0] == "名詞"]
    pos = morphemes[index].part_of_speech()
    if pos[0] == "形状詞":
        return bool(after) and after[0].part_of_speech()[0] == "名詞"
    return bool(nouns) and pos[5].startswith("連体形")


# する, its potential できる, and its honorific なさる (ご出席なさる: 出席する).
LIGHT_VERBS = frozenset({"為る", "出来る", "為さる"})


def light_verb_follows(morphemes: tuple[Morpheme, ...], index: int) -> bool:
    """する, or できる, after a verbal noun (出席する, 購入した, 出社できた)."""
    return index + 1 < len(morphemes) and morphemes[index + 1].normalized_form() in LIGHT_VERBS


def next_is_predicate(morphemes: tuple[Morpheme, ...], index: int) -> bool:
    return index + 1 < len(morphemes) and morphemes[index + 1].part_of_speech()[0] == "動詞"


# Conjunctions that open a sentence and give the one before it as the cause of what it
# tells (従って, 故に) or as what it happened in spite of (然し, けれど, ところが), by
# Sudachi's normalised form. だから, だけど, でも are the copula or で with a particle.
CONJUNCTIONS = {
    "従って": BECAUSE, "故に": BECAUSE, "其れ故": BECAUSE,
    "然し": DESPITE, "けれど": DESPITE, "けれども": DESPITE, "だが": DESPITE,
    "ところが": DESPITE, "でも": DESPITE,
}  # fmt: skip


def opens_sentence(morphemes: tuple[Morpheme, ...], index: int) -> bool:
    """Nothing but a pronoun (それでも) stands before ``index`` in its sentence."""
    before = index - 1
    if before >= 0 and morphemes[before].part_of_speech()[0] == "代名詞":
        before -= 1
    return before < 0 or morphemes[before].part_of_speech()[1] == "句点"


def reason_relation(morphemes: tuple[Morpheme, ...], index: int) -> str:
    """The relation to the event that the particle at ``index`` gives the clause before
    it: DESPITE for が, けど (降ったが, 雨だけど) and のに after a tense, the copula or an
    adjective (降ったのに, 雨なのに, 高いのに; after a bare verb のに may tell a purpose);
    BECAUSE for から after a predicate (降ったから) and ので (の + the copula で, not の
    ではない); DESPITE for でも opening a sentence; "" for any other."""
    m = morphemes[index]
    surface, sub = m.surface(), m.part_of_speech()[1]
    following = morphemes[index + 1] if index + 1 < len(morphemes) else None
    if surface == "で" and following is not None and following.surface() == "も":
        return DESPITE if opens_sentence(morphemes, index) else ""  # でも, それでも
    if sub == "接続助詞":
        if surface in CONCESSIVE_PARTICLES:
            return DESPITE
        return BECAUSE if surface == "から" and after_predicate(morphemes, index) else ""
    if surface != "の" or sub != "準体助詞" or index + 1 >= len(morphemes) or not index:
        return ""
    following, previous = morphemes[index + 1], morphemes[index - 1]
    after = morphemes[index + 2] if index + 2 < len(morphemes) else None
    if following.surface() == "で" and following.part_of_speech()[0] == "助動詞":
        goes_on = after is not None and (
            after.part_of_speech()[1] in ("係助詞", "副助詞") or after.normalized_form() == "有る"
        )
        return "" if goes_on else BECAUSE
    finite = previous.part_of_speech()[0] in ("助動詞", "形容詞")
    if following.surface() == "に" and following.part_of_speech()[1] == "格助詞" and finite:
        return DESPITE
    return ""


def gives_cause(morphemes: tuple[Morpheme, ...], index: int) -> bool:
    """A formal noun of cause after の or a predicate and before で (雨のせいで, 降った
    おかげで); not ケンのせいにした (blamed Ken) nor ケンのせいだ (the fault is Ken's)."""
    if morphemes[index].normalized_form() not in CAUSE_NOUNS or not index:
        return False
    following = morphemes[index + 1] if index + 1 < len(morphemes) else None
    if following is None or following.surface() != "で":
        return False
    return morphemes[index - 1].surface() == "の" or after_predicate(morphemes, index)


def least_of_all(morphemes: tuple[Morpheme, ...], index: int) -> bool:
    """も after the least of something or after who or what, not before が: 一口も, 一度も,
    一本も, 一つも, 少しも, 誰も, 何も, どれも (under a denial, none at all), not 誰もが
    (everyone)."""
    if not index:
        return False
    previous = morphemes[index - 1]
    following = morphemes[index + 1] if index + 1 < len(morphemes) else None
    if following is not None and following.surface() == "が":
        return False
    kind = previous.part_of_speech()
    if kind[0] == "代名詞":
        who = str(previous.normalized_form())
        # どれも affirmed is no denial's any (どれもおいしかった): only under a denial.
        return who in ("誰", "何") or (who == "どれ" and denied_ahead(morphemes, index))
    if kind[0] == "副詞":  # not even a little
        return str(previous.normalized_form()) == "少し" and denied_ahead(morphemes, index)
    if one_counted(morphemes, index - 1):
        # 一本も, 一つも, 一日も under a denial (not 1時間も待った: as long as an hour)
        return denied_ahead(morphemes, index)
    return bool(kind[0] == "名詞" and previous.surface().startswith("一"))


def denied_ahead(morphemes: tuple[Morpheme, ...], index: int) -> bool:
    """A denial (ない, ず, ぬ, ん) follows ``index`` in its clause: before the sentence
    ends or a conjunctive particle closes the clause (おいしかったが、高くなかった;
    1時間も待って、忘れなかった)."""
    for at in range(index + 1, len(morphemes)):
        m = morphemes[at]
        kind = m.part_of_speech()
        if m.surface() in CLAUSE_ENDS or _conjoins(morphemes, at):
            return False
        if kind[0] in ("助動詞", "形容詞") and str(m.normalized_form()) in DENIALS:
            return True
    return False


def _conjoins(morphemes: tuple[Morpheme, ...], index: int) -> bool:
    """The morpheme at ``index`` ends its clause and joins the next: a conjunctive particle
    (が, ので, ば; て or で but where an auxiliary verb follows: 飲んでいない,
    食べてしまわなかった are one predicate), たら, or のに (の before に)."""
    m, kind = morphemes[index], morphemes[index].part_of_speech()
    following = morphemes[index + 1] if index + 1 < len(morphemes) else None
    if kind[1] == "準体助詞":
        return following is not None and following.surface() == "に"  # 待ったのに
    if kind[0] == "助動詞":
        return m.surface() in ("たら", "だら")
    if kind[1] != "接続助詞":
        return False
    if m.surface() not in ("て", "で"):
        return True
    return following is None or following.part_of_speech()[:2] != ("動詞", "非自立可能")


# The auxiliaries of denial, as the dictionary normalises them (ない, 無い; ず, ぬ, ん),
# and the marks that end a sentence (the text is NFKC-normalised: ! and ?).
DENIALS = frozenset({"ない", "無い", "ず", "ぬ", "ん"})
CLAUSE_ENDS = frozenset({"。", "!", "?", "\n"})


def one_counted(morphemes: tuple[Morpheme, ...], index: int) -> bool:
    """The morpheme at ``index`` is a counter after the numeral 一 (一本, 一つ, 一日)."""
    counter = morphemes[index].part_of_speech()
    return (
        index >= 1
        and morphemes[index - 1].surface() in ("一", "1")  # the numbers write 一 as 1
        and morphemes[index - 1].part_of_speech()[1] == "数詞"
        and (counter[2] == "助数詞" or counter[2] == "助数詞可能")
    )


def additive(morphemes: tuple[Morpheme, ...], index: int) -> bool:
    """も that adds its phrase to what else holds, "too": after a noun, a pronoun or a case
    particle (アヤも来た, 私も走った, ルイからも届いた, 夕方も走った); not after a conjunctive one
    (降っても), a number of times or the least of something (3回も, 何度も, 一口も, 誰も:
    how many, or none at all), nor before が (誰もが)."""
    if not index or morphemes[index].surface() != "も":
        return False
    if morphemes[index].part_of_speech()[1] != "係助詞" or least_of_all(morphemes, index):
        return False
    following = morphemes[index + 1] if index + 1 < len(morphemes) else None
    if following is not None and following.surface() == "が":
        return False
    at = index - 1
    if morphemes[at].part_of_speech()[1] == "格助詞":
        at -= 1  # ルイからも: the noun before the case particle
        if at < 0:
            return False  # でも opening a sentence: "but"
    before = morphemes[at]
    kind = before.part_of_speech()
    if (
        kind[0] not in ("名詞", "代名詞")
        or kind[1] == "数詞"
        or before.surface().startswith(("何", "一"))
    ):
        return False
    return not (at and morphemes[at - 1].part_of_speech()[1] == "数詞")  # 3回も


def cleft_copula(morphemes: tuple[Morpheme, ...], index: int) -> bool:
    """で that is the copula after a cleft's focus, before a comma: 提案したのはマスターで、
    反対したのは課長だった (the analyser takes it for the case particle of where or how)."""
    following = morphemes[index + 1] if index + 1 < len(morphemes) else None
    if following is None or following.surface() not in ("、", ","):
        return False
    return after_cleft_focus(morphemes, index)


def nominalises(morphemes: tuple[Morpheme, ...], index: int) -> bool:
    """The morpheme at ``index`` is the particle の that makes the clause a predicate's
    attributive form ends a thing, the object or subject of what follows
    (持っていくのを忘れた, 来たのを知っていた)."""
    if not index or index + 1 >= len(morphemes):
        return False
    before, after = morphemes[index - 1], morphemes[index + 1]
    return (
        morphemes[index].part_of_speech()[1] == "準体助詞"
        and "連体形" in before.part_of_speech()[5]
        and after.part_of_speech()[1] == "格助詞"
    )


def after_cleft_focus(morphemes: tuple[Morpheme, ...], index: int) -> bool:
    """The morphemes before ``index`` end a cleft's focus: 提案したのは | マスター |."""
    at = index - 1
    while at >= 0 and morphemes[at].part_of_speech()[0] in ("名詞", "接尾辞", "接頭辞"):
        at -= 1  # the focus: マスター, 課長, 佐藤さん
    if at == index - 1 or at < 1 or morphemes[at].surface() != "は":
        return False
    before = morphemes[at - 1]
    return bool(before.surface() == "の" and before.part_of_speech()[1] == "準体助詞")


def comma_segment(morphemes: tuple[Morpheme, ...], index: int, step: int) -> list[Morpheme]:
    """The morphemes between the 、 at ``index`` and the next mark that way."""
    found = []
    at = index + step
    while 0 <= at < len(morphemes) and morphemes[at].surface() not in "、,。":
        found.append(morphemes[at])
        at += step
    return found


def value_ends_at(morphemes: tuple[Morpheme, ...], skip: frozenset[int], index: int) -> bool:
    """The morpheme at ``index`` is a number or date (a character of ``skip``, the values'),
    or the counter after one (6000円, 3冊)."""
    if morphemes[index].begin() in skip:
        return True
    counter = morphemes[index].part_of_speech()[2] == "助数詞可能"
    return counter and index > 0 and morphemes[index - 1].begin() in skip


def phrase_in(morphemes: list[Morpheme]) -> bool:
    """A particle ends a phrase among ``morphemes`` (紅茶に, キャットフードは)."""
    return any(m.part_of_speech()[1] in ("格助詞", "係助詞") for m in morphemes)


def denied_later(morphemes: tuple[Morpheme, ...], index: int) -> bool:
    """A negation follows ``index`` in its clause (全部は食べなかった; not 全部は読んだが、
    分からなかった: a conjunctive particle or a mark ends the clause)."""
    for m in morphemes[index + 1 :]:
        if m.surface() in ("。", "、", ",", "！", "？", "!", "?") or (
            m.part_of_speech()[1] == "接続助詞" and m.surface() not in ("て", "で")
        ):
            return False
        if negates(m):
            return True
    return False


# The auxiliaries of denial (食べない, 食べぬ, 食べん, 食べず).
NEGATIONS = frozenset({"ない", "ぬ", "ん", "ず"})


def negates(m: Morpheme) -> bool:
    """``m`` denies its predicate: an auxiliary of denial, or the adjective 無い."""
    kind, base = m.part_of_speech()[0], m.normalized_form()
    if kind == "形容詞":
        return bool(base == "無い")
    return kind == "助動詞" and (
        m.dictionary_form() in NEGATIONS or base in NEGATIONS or base == "無い"
    )


def one_of_them(morphemes: tuple[Morpheme, ...], index: int) -> bool:
    """An adjective at ``index`` that の makes a noun before a case particle: the one it
    describes (古いのより軽い: lighter than the old one), no predicate of its own."""
    if index + 2 >= len(morphemes):
        return False
    no, particle = morphemes[index + 1], morphemes[index + 2]
    return (
        no.surface() == "の"
        and no.part_of_speech()[1] == "準体助詞"
        and particle.part_of_speech()[1] in ("格助詞", "係助詞")
        and particle.surface() != "に"  # 高いのに買った: "though", no thing
    )


def copulas_joined(morphemes: tuple[Morpheme, ...], index: int) -> bool:
    """The で at ``index`` is the copula joining two clauses that each end in a noun
    (ケンが受付担当で、アヤが会計担当だ): a comma after it, and the sentence ending in a
    noun and だ or です, which the で stands for in the first clause."""
    if index + 1 >= len(morphemes) or morphemes[index + 1].surface() not in ("、", ","):
        return False
    if index == 0 or morphemes[index - 1].part_of_speech()[0] != "名詞":
        return False
    end = next(
        (i for i in range(index + 1, len(morphemes)) if morphemes[i].part_of_speech()[1] == "句点"),
        len(morphemes),
    )
    if end - index < 3:
        return False
    last, before = morphemes[end - 1], morphemes[end - 2]
    return (
        last.part_of_speech()[0] == "助動詞"
        and last.normalized_form() in ("だ", "です")
        and before.part_of_speech()[0] == "名詞"
    )


# The verb of によって and により, by Sudachi's normalised form (依る and 因る written in
# kana come out as よる).
BY_VERBS = frozenset({"よる", "依る", "因る", "由る"})


def agent_marker(morphemes: tuple[Morpheme, ...], index: int) -> range:
    """The morphemes after the に at ``index`` that make it one case particle with it,
    "by", the doer of the passive its clause ends in (祖父によって建てられた, 真央さんにより
    計画された): よる in its conjunctive form with て, or より. Empty where there are none,
    and where the phrase is no doer: no passive follows in the sentence (台風によって電車が
    止まった, 人によって意見が違う), は or も follows (場合によっては: depending on), より
    is "more" before a word of degree (ケンにより良い部屋が) or よります says "according
    to" (警察によりますと); による before a noun (祖父による設計) describes the noun."""
    if morphemes[index].surface() != "に" or index + 1 >= len(morphemes):
        return range(0)
    verb = morphemes[index + 1]
    if verb.part_of_speech()[0] != "動詞" or verb.normalized_form() not in BY_VERBS:
        return range(0)
    if verb.surface() == "より":
        marker = range(index + 1, index + 2)
    elif index + 2 < len(morphemes) and morphemes[index + 2].surface() == "て":
        marker = range(index + 1, index + 3)
    else:
        return range(0)
    after = morphemes[marker[-1] + 1] if marker[-1] + 1 < len(morphemes) else None
    if after is None or after.surface() in ("は", "も"):
        return range(0)
    if verb.surface() == "より" and (
        _degree(after)
        or after.normalized_form() in ("ます", "多く")
        or after.part_of_speech()[0] == "補助記号"
    ):
        return range(0)  # より良い, より多くの; によりますと; 場合により、
    return marker if _passive_follows(morphemes, marker[-1] + 1) else range(0)


# What より before it makes "more" (より良い, より安全な, より早く).
DEGREE = frozenset({"形容詞", "形状詞", "副詞"})
PASSIVES = frozenset({"れる", "られる"})


def _degree(m: Morpheme) -> bool:
    pos = m.part_of_speech()
    return pos[0] in DEGREE or pos[2] == "形状詞可能"


def _passive_follows(morphemes: tuple[Morpheme, ...], start: int) -> bool:
    """The first verb from ``start`` on, in the sentence, takes the passive straight
    after it (建てられた; not 走らされた, whose causative comes first, as the analyser's
    走らす or as させる)."""
    for at in range(start, len(morphemes) - 1):
        if morphemes[at].part_of_speech()[1] == "句点":
            return False
        if morphemes[at].part_of_speech()[0] == "動詞":
            following = morphemes[at + 1]
            return (
                following.part_of_speech()[0] == "助動詞"
                and following.normalized_form() in PASSIVES
                and not lexical_causative(morphemes[at].normalized_form())
            )
    return False
