"""What the guard reads as a correction (``guard.corrects``), and what it does not."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from ego_mcp.memory.guard import corrects
from ego_mcp.memory.guard.corrections import without_correction_marks
from ego_mcp.memory.model import Link, LinkType, Memory, SearchHit
from ego_mcp.memory.recall.fusion import Ranked, newer_first


@pytest.mark.parametrize(
    ("old", "new", "kind"),
    [
        ("Master's flight is at 9.", "Master's flight is at 11.", "number"),
        ("Aya's wedding is on June 3.", "Actually, Aya's wedding is on June 10.", "time"),
        ("Ken moved to Osaka.", "Ken moved to Kyoto, not Osaka.", "place"),
        ("Master passed the exam.", "Master failed the exam.", "outcome"),
        # "last night" is yesterday's night, as 昨夜 is.
        ("Yesterday Ken finished the report at 9 pm.",
         "Correction: Ken finished the report at 8 pm last night, not 9.", "time"),
        ("アヤの送別会は新宿の居酒屋で開かれる。",
         "アヤの送別会は新宿ではなく池袋の居酒屋で開かれる。", "place"),
        # An amount is no year (2000円); a negating prefix is an opposite (不合格).
        ("チケットに1800円払った。", "チケットに実は2000円払っていた。", "number"),
        ("マスターは英検2級に合格した。", "マスターは英検2級に実は不合格だった。", "outcome"),
        # A capitalised word no dictionary knows is a name, whatever the tagger says.
        ("Rui will drive Master on Friday.", "Turns out Aya will drive Master on Friday.", "name"),
        # Two common nouns WordNet files as places, in one role.
        ("Ken left his umbrella at the library.", "Ken left his umbrella at the café.", "place"),
        # A place WordNet lists as two words; a place name with the place it names
        # (京都の本店 / 奈良の支店: a compound WordNet lacks is a place by its head).
        ("Ken waited for Emi at the bus stop.", "Ken waited for Emi at the train station.",
         "place"),
        ("マスターの新しい店は京都の本店だそうだ。", "マスターの新しい店は奈良の支店だそうだ。",
         "place"),
        # A katakana word with no meaning in the glossary that the dictionary lists as a
        # given name is a person (アヤ is also 綾, "twill").
        ("駅でマスターを待っていたのはアヤだった。",
         "駅でマスターを待っていたのは実はユキだった。", "person"),
        # A report (と聞いた) corrected by the fact; a denied ability is the deed denied.
        ("ルイの引っ越しは3月5日だと聞いた。", "ルイの引っ越しは実は3月15日だった。", "time"),
        ("Emi says she will join the hike on Sunday.",
         "Emi says she won't be able to join the hike on Sunday.", "outcome"),
        # One reason given as the cause of one event and as what the other happened in
        # spite of: the outcome turned, told with another verb or denied.
        ("The street market was cancelled because of the storm.",
         "The street market went ahead despite the storm.", "outcome"),
        ("The match was not played because of the snow.",
         "The match was played despite the snow.", "outcome"),
        ("大雨のせいで花火大会は中止になった。",
         "大雨だったが花火大会は予定どおり開かれた。", "outcome"),
        ("大雨が降ったので運動会は延期された。", "大雨が降ったのに運動会は行われた。",
         "outcome"),
        # An implicative verb tells whether its complement happened (forgot to lock: did
        # not); "any" under a denial against "all" or "some"; a verb that is a way of
        # doing the denied one (finish: eat up).
        ("Ken locked the door.", "Ken forgot to lock the door.", "outcome"),
        # A topic whose attribute is the subject owns it (ケンは体重が: ケンの体重は); a
        # number denied with its unit (70キロではなく).
        ("ケンは今朝、体重が70キロだったと言っていた。",
         "訂正：今朝のケンの体重は70キロではなく72キロだった。", "number"),
        # Said to correct, a correction may leave out a value beside the one replaced,
        # and give its reason in a sentence of its own.
        ("Ken swam 800 meters on Sunday.", "Actually, Ken swam 1,000 meters.", "number"),
        ("Aya's bus leaves at 7:15.",
         "Turns out Aya's bus leaves at 7:45; she had read the old timetable.", "time"),
        ("Aya's bus leaves at 7:15.",
         "Actually Aya's bus leaves at 7:45 — she read the old timetable.", "time"),
        ("The train leaves at 8:30.", "The train leaves at 8:40. I checked the timetable.",
         "time"),
        # ... and a thing "on" or "at" governs is where, when it says it corrects the place.
        ("Ken left his gloves on the train.", "Turns out Ken left his gloves at the gym.",
         "place"),
        # ... and leave out a name of a kind it names none of.
        ("Ken's piano lesson is at 5 on Friday.",
         "Actually, the piano lesson is at 6 on Friday.", "number"),
        ("アヤさんの誕生会は5月8日だと聞いた。",
         "アヤさんの誕生会は5月18日だった。日付を聞き間違えていたらしい。", "time"),
        ("Emi finished her essay.", "Emi failed to finish her essay.", "outcome"),
        ("Ken ate some of the cake.", "Ken didn't eat any of the cake.", "outcome"),
        ("Rex finished all of his dinner.", "Rex refused to eat any of his dinner.", "outcome"),
        ("Ken walked to the station.", "Ken didn't go to the station.", "outcome"),
        ("マスターは駅まで歩いた。", "マスターは駅に行かなかった。", "outcome"),
        # The report either text has (実は…だったそうだ: heard); where or how a denied
        # deed was done goes with it; 一口も is the "any" of a denial.
        ("ルイの引っ越しは3月5日だ。", "ルイの引っ越しは実は3月15日だったそうだ。", "time"),
        ("Master renewed his passport at the city office.",
         "Master forgot to renew his passport.", "outcome"),
        ("マスターはカレーを全部食べた。", "マスターはカレーを一口も食べなかった。", "outcome"),
        ("Master stayed home from the flea market on Sunday because of the rain.",
         "Master went to the flea market on Sunday despite the rain.", "outcome"),
        # The favour of a telling is the report's (話してくれた); a possession told with
        # "have" or with a possessive is one.
        ("マスターは餃子を30個作ったと話してくれた。",
         "マスターが作った餃子は、本当は50個だったらしい。", "number"),
        ("Master has a dentist appointment next Tuesday at 3 pm.",
         "Master's dentist appointment is actually next Tuesday at 4:30 pm.", "time"),
        # The teller and the one told go with the telling.
        ("Master told me Ken's party is on Saturday.", "Ken's party is actually on Sunday.",
         "time"),
        # Markers of a correction: "I was wrong", "Correction:", 訂正:, じゃなくて.
        ("Emi passed her driving test today.", "I was wrong, Emi failed her driving test today.",
         "outcome"),
        ("ケンの送別会は金曜日だ。", "訂正:ケンの送別会は土曜日だ。", "time"),
        ("マスターはアヤと新宿で映画を見た。", "マスターはアヤと新宿じゃなくて渋谷で映画を見た。",
         "place"),
        # A thing a preposition that tells only where governs is a place (under the seat,
        # behind the door), as is a place told as someone's (at Ken's house).
        ("Ken found his gloves under the seat.", "Ken found his gloves behind the door.", "place"),
        ("Emi found her keys under the sofa.",
         "Actually, Emi found her keys behind the bookshelf.", "place"),
        ("Master left his bike at Ken's house.", "Master left his bike at the station.", "place"),
        # One relative for another, also as the focus of a cleft (お父さんじゃなくて: the
        # honorific お goes with the word it denies).
        ("Ken's sister drove Master home.", "Actually, Ken's cousin drove Master home.", "person"),
        ("マスターのお父さんが駅まで迎えに来てくれた。",
         "駅まで迎えに来てくれたのは、お父さんじゃなくてマスターのお兄さんだった。", "person"),
        # An estimate goes with the number it estimates.
        ("About 30 people came to the party.", "Actually, 18 people came to the party.", "number"),
        ("パーティーには30人くらい来た。", "実は、パーティーには18人来た。", "number"),
        # The focus stays on the word that replaced another: one fact.
        ("Only Ken came to the party.", "Actually, only Aya came to the party.", "name"),
        ("ケンだけが来た。", "実は、アヤだけが来た。", "person"),
        # A text that says it corrects may retell the rest in fewer words.
        ("ルイとの飲み会は金曜日の夜に決まった。",
         "ルイとの飲み会、実は土曜日の夜だった。", "time"),
        # "I was wrong" before a dash, as before a comma or a colon; not before a dash
        # inside a word (Mon–Fri).
        ("Master's piano lesson is at 5 on Friday.",
         "I was wrong — the piano lesson is at 6 on Friday.", "number"),
        ("The shop opens at 9 on weekdays.",
         "I was wrong about the Mon–Fri hours: the shop opens at 10 on weekdays.", "number"),
        # The older memory's subject left out where the new text has its own.
        ("Master has a meeting at 3.", "Actually, the meeting is at 4.", "number"),
        # A phrase denied is the whole noun phrase the other text holds, as long as what
        # is said instead (佐々木先生じゃなくて山口先生, 5月20日じゃなくて5月2日).
        ("ご主人様の歯医者の担当医は佐々木先生。",
         "歯医者の担当医は佐々木先生じゃなくて山口先生だった。", "person"),
        ("アヤの手術は5月20日に決まった。", "アヤの手術は5月20日じゃなくて5月2日だった。",
         "time"),
        # The denial names the fact replaced, and the thing that stands in its place is
        # the new one: past a determiner (not his sister), a cleft's focus (It was Kimura,
        # not the manager; …のはパン屋のレジだった), a passive's agent; a thing "at"
        # governs is a place (at the dry cleaner's).
        ("Master's manager approved the budget on Monday.",
         "It was Kimura, not the manager, who approved the budget on Monday.", "person"),
        ("Master forgot his scarf at the gym.",
         "Turns out the scarf was forgotten at the library, not the gym.", "place"),
        ("Ken's sister won the quiz at the school fair.",
         "Ken's brother won the quiz at the school fair, not his sister.", "person"),
        ("マスターは鍵を駅のベンチに置き忘れた。",
         "鍵を置き忘れたのは駅のベンチではなく、パン屋のレジだった。", "place"),
        ("Master left the umbrella at the office.",
         "Turns out the umbrella was left at the dry cleaner's, not the office.", "place"),
        # ... with the name that owns it; a thing "in" governs is no place when it is a
        # name (in Rust, not Go).
        ("The party is at the office.",
         "Actually, the party is at Aya's apartment, not the office.", "place"),
        ("パーティーは会社でやる。", "パーティーは会社ではなくアヤの家でやる。", "place"),
        ("Ken wrote the tool in Go.", "Actually, Ken wrote the tool in Rust, not Go.", "name"),
    ],
)  # fmt: skip
def test_one_fact_replaced_is_a_correction(old: str, new: str, kind: str) -> None:
    assert corrects(old, new) == kind


@pytest.mark.parametrize(
    ("old", "new"),
    [
        # "too", "also", "later": another time, not the same fact corrected.
        ("Emi called Master at 9 last night.", "Emi called Master at 11 last night too."),
        ("Emi called Master at 9.", "Later, Emi called Master at 11."),
        # A thing is no place: another object, not the same fact corrected.
        ("Ken left his umbrella at the library.", "Ken left his book at the library."),
        # A value replaced and another left out.
        ("Master ran 5 km along the river on Monday.", "Master ran 7 km along the river."),
        # Two kinds at once: more likely another occasion.
        ("Master ran 5 km on Monday.", "Master ran 7 km on Thursday."),
        # A denial of its own is no marker: it adds words.
        ("Ken will come to the party.", "Ken will not come to the party, not unless Aya asks."),
        ("Master bought a lamp.", "Master bought a red lamp."),
        # A report, then the same fact: nothing replaced. An ability without a denial.
        ("ケンは大阪に引っ越すと聞いた。", "ケンは大阪に引っ越した。"),
        ("Ken will come to the party.", "Ken will be able to come to the party."),
        # A common noun in katakana is no name.
        ("駅でマスターを待っていたのはアヤだった。", "駅でマスターを待っていたのはカメラだった。"),
        # A reason turned over the same event says why, not what happened; over events
        # of other participants it tells of two events.
        ("The market went ahead because of the crowds.",
         "The market went ahead despite the crowds."),
        ("The trains stopped because of the snow.", "The buses kept running despite the snow."),
        ("雨のせいで試合は中止になった。", "雨だけど試合は中止になった。"),
        # What a person did in spite of a reason and what it did to them may both hold;
        # a denial inside the reason turns the reason, not the event.
        ("Master was tired because of the long meeting.",
         "Master went to the gym despite the long meeting."),
        ("マスターは残業のせいで疲れていた。", "マスターは残業だったけどジムに行った。"),
        ("Ken stayed home because of the rain.", "Ken went to the gym despite the rain."),
        ("The picnic was cancelled because it rained.",
         "The picnic was cancelled although it didn't rain."),
        # Trying is not doing; remembering to do it is doing it; a denied refusal says
        # nothing of the deed.
        ("Ken tried to fix the bike.", "Ken failed to fix the bike."),
        ("Ken locked the door.", "Ken remembered to lock the door."),
        ("Ken didn't refuse to help.", "Ken helped."),
        ("Master didn't refuse to help Ken.", "Master didn't help Ken."),
        # Forgetting how to do it is no deed denied; going is no walking denied.
        ("Master forgot how to ride a bike.", "Master rode a bike."),
        ("Master went to the gym.", "Master didn't walk to the gym."),
        ("Master ate the cake.", "Master didn't finish the cake."),
        ("マスターは駅に行った。", "マスターは駅まで歩かなかった。"),
        # も after a time: that time too, another occasion.
        ("マスターは今朝ジョギングをした。", "マスターは今日の夕方もジョギングをした。"),
        # A word left out is no safer than one added: it may pick out another thing or
        # time (the last train, on weekdays), or tell another event (ate, cooked, worked).
        ("Master didn't cook but ate pasta at home.", "Master ate pasta at the café."),
        ("Master cooked and ate pasta at home.", "Master ate pasta at the café."),
        ("Master worked at the hospital.", "Master was at the station."),
        ("The forecast predicted rain on Saturday.", "It rained on Sunday."),
        ("I ate 3 cookies.", "There were 10 cookies."),
        ("ケーキを3個食べた。", "ケーキは10個だった。"),
        ("The last train left at 11.", "The train left at 10."),
        ("Ken got up at 6 on weekdays.", "Ken got up at 9."),
        # A verb that takes an infinitive is no report (promised, asked, reminded).
        ("Ken promised to come at 6.", "Ken came at 7."),
        ("Master reminded Ken to call Aya on Monday.", "Ken called Aya on Tuesday."),
        ("Ken denied that he broke the vase on Monday.", "Ken broke the vase on Tuesday."),
        # A name that is no place's owner is a fact of its own; so is a relative beside a
        # place: two facts.
        ("Master played tennis with Aya at the park.", "Master played tennis with Ken at the gym."),
        ("Master met Ken's sister at the station.", "Master met Ken's cousin at the airport."),
        ("Aya's dog slept under the table.", "Ken's dog slept under the bed."),
        # An English relative with no role (of, about) is no party to compare.
        ("I took a photo of my father.", "My brother took a photo of me."),
        # "in", "on" and "at" tell how or with what as often as where; a noun the parse
        # does not read as the place's modifier is none.
        ("Master wrote the letter in pencil.", "Master wrote the letter at the desk."),
        ("Master played a song on the piano.", "Master played a song on the guitar."),
        ("Aya is a teacher at the school.", "Aya is a student at the university."),
        # Two nouns for people other than relatives may name one person; so may a name.
        ("Master's boss praised his report.", "Master's manager praised his report."),
        ("The boss praised Master's report.", "Sato praised Master's report."),
        # Other words besides the name, one pair of them near in WordNet, are no rewording.
        ("Ken gave Master a book about Italian cooking.",
         "Master is reading a book about Italian history that Emi lent him."),
        # A marker does not make another deed or thing a correction.
        ("Ken ran 5 km on Monday.", "Actually, Ken swam 2 km on Monday."),
        ("Master's flight is at 9.", "Actually, Master's meeting is at 11."),
        ("Master's grandfather turned 85 this month.",
         "Actually, Master's grandfather still swims every morning."),
        ("ルイさんは英検2級に合格した。",
         "実はルイさん、次は準1級を目指して毎日勉強しているらしい。"),
        ("Ken ran 5 km on Monday.", "Actually, Ken swam 2 km on Monday; I misheard."),
        ("Master's train is at 9.", "Master's bus is at 11; I misread the ticket."),
        # A name whose role the diarist takes is not left out by a marked text: the
        # diarist's own deed or thing.
        ("Ken ran 5 km along the river on Monday.",
         "Actually, I ran 8 km along the river on Monday."),
        ("Ken's flight to Sapporo is at 7 on Friday.",
         "Actually, my flight to Sapporo is at 11 on Friday."),
        # Nor is the older memory's subject where the new text names none: who ran is
        # unsaid.
        ("ケンは月曜日に5キロ走った。", "実は月曜日に8キロ走った。"),
        # A denial of one value beside other facts changed, or of a word another holds
        # only inside a word ("son" in "season"); a name beside the thing denied; a
        # denied deed of another relative; what a source says of its own schedule.
        ("Ken is flying to Hawaii on Friday.",
         "Actually, Emi is the one flying to Guam on Saturday, not Ken."),
        ("Ken's team lost every game this season.",
         "Ken's team won every game this season, not his son."),
        ("Master flew to Paris with his mother.",
         "Actually, Master flew to Rome with his sister, not Paris."),
        ("Ken's grandfather visited on Sunday.", "Ken's grandmother did not visit on Sunday."),
        ("ケンのお兄さんがパーティーに来た。", "ケンのお姉さんはパーティーに来なかった。"),
        ("Aya's father will come to dinner.", "Aya's mother won't come to dinner."),
        ("ケンの父はたばこを吸う。", "ケンの母はたばこを吸わない。"),
        ("According to Ken, the party is at 7.", "According to Aya, the party is at 8."),
        ("The pool opens at 9.", "Actually, the pool opens at 10, per the winter schedule."),
        ("The hotel cost 18,000 yen.", "The hotel cost 9,000 yen per person."),
        ("ケンに3千円借りた。", "ケンに借りたのは5千円だった。3千円は別の日に借りた分だ。"),
    ],
)  # fmt: skip
def test_anything_else_is_no_correction(old: str, new: str) -> None:
    assert corrects(old, new) is None


@pytest.mark.parametrize(
    ("old", "new"),
    [
        # The particle of addition: another person besides (Emi came too).
        ("ケンが送別会に来てくれた。", "エミも送別会に来てくれた。"),
        ("エミから手紙が届いた。", "ルイからも手紙が届いていた。"),
        ("マスターは今朝、川沿いを5キロ走った。", "実は私も今朝、8キロ走った。"),
        # Unmarked, a value left out beside the one replaced is more likely another time.
        ("Ken swam 800 meters on Sunday.", "Ken swam 1,000 meters."),
        ("Ken's piano lesson is at 5 on Friday.", "The piano lesson is at 6 on Friday."),
        ("Ken left his gloves on the train.", "Ken left his gloves at the gym."),
        # A pronoun may stand for another person than the name left out; a thing used is
        # no place (on the laptop, on the piano).
        ("Aya's party is on Saturday.", "Ken corrected me: his party is on Sunday."),
        ("I wrote the letter at home.", "Actually, I wrote the letter on the laptop."),
        # A second sentence that tells a value of its own is a fact of its own.
        ("Aya's bus leaves at 7:15.", "Aya's bus leaves at 7:45; the train leaves at 8."),
        ("Aya's bus leaves at 7:15.", "Aya's bus leaves at 7:45. Ken's bus leaves at 7:15."),
    ],
)
def test_another_fact_beside_is_no_correction(old: str, new: str) -> None:
    assert corrects(old, new) is None


def test_today_of_two_days_is_no_one_day() -> None:
    old, new = "Master drank two cups of coffee today.", "Master drank three cups of coffee today."
    assert corrects(old, new, days_apart=0) == "number"
    assert corrects(old, new, days_apart=3) is None


def test_a_denial_in_a_long_text_is_read_near_its_mark() -> None:
    """The analyser reads a text up to its limit; a phrase denied is read within a few
    dozen characters of its ではなく, so a long text is no error."""
    long = "マスターは駅まで歩いた。" * 1_600 + "会社ではなく家にいた。"
    assert without_correction_marks(long, "会社にいた。").endswith("家にいた。")


def test_markers_are_read_past_only_where_they_are_markers() -> None:
    assert (
        without_correction_marks("この果実は酸っぱい。", "この果実は甘い。")
        == "この果実は酸っぱい。"
    )
    assert without_correction_marks("今日新宿ではなく池袋で会った。", "今日新宿で会った。") == (
        "今日池袋で会った。"
    )
    # A number denied goes with its unit, and only a whole number is the other's.
    denied, other = "体重は68キロではなく66キロだった。", "体重は68キロだった。"
    assert without_correction_marks(denied, other) == "体重は66キロだった。"
    assert without_correction_marks("8キロではなく6キロだった。", "68キロだった。") == (
        "8キロではなく6キロだった。"
    )
    # A number denied whole, past its point or comma.
    assert without_correction_marks("Biscuit weighs 4.6 kg, not 5.2.", "It weighed 5.2 kg.") == (
        "Biscuit weighs 4.6 kg."
    )
    assert without_correction_marks("It was 3,800 yen, not 4,200.", "It was 4,200 yen.") == (
        "It was 3,800 yen."
    )
    # Who set it right, as a sentence opens or closes; "corrected" with an object is a deed.
    assert without_correction_marks("Ken corrected me: it was 5.", "It was 4.") == "it was 5."
    assert without_correction_marks("It was 5, Ken admitted.", "It was 4.") == "It was 5."
    deed = "Ken corrected the typo in the report."
    assert without_correction_marks(deed, "Ken found a typo.") == deed
    kept = "Ken will not come, not unless Aya asks."
    assert without_correction_marks(kept, "Ken will come.") == kept
    # The phrase denied is the noun phrase the other holds nearest in length to the one
    # said instead: not a time noun before it, nor its suffix alone.
    assert (
        without_correction_marks(
            "胃カメラの担当は高橋先生じゃなくて中村先生だった。", "担当医は高橋先生。"
        )
        == "胃カメラの担当は中村先生だった。"
    )
    assert (
        without_correction_marks(
            "財布を忘れたのは駅のトイレではなく、コンビニのレジだった。",
            "財布を駅のトイレに忘れた。",
        )
        == "財布を忘れたのはコンビニのレジだった。"
    )
    assert (
        without_correction_marks(
            "マフラーは妹さんではなくお姉さんからだった。", "マフラーをくれたのは妹さん。"
        )
        == "マフラーはお姉さんからだった。"
    )
    assert (
        without_correction_marks(
            "Ken's son won the raffle, not his wife.", "Ken's wife won the raffle."
        )
        == "Ken's son won the raffle."
    )
    # An honorific prefix goes with the word denied, and stays with a word kept.
    assert without_correction_marks("お父さんじゃなくてお兄さんが来た。", "お父さんが来た。") == (
        "お兄さんが来た。"
    )


@pytest.mark.parametrize(
    ("old", "new", "kind"),
    [
        ("Aya's train arrives at 6 p.m. on Friday.",
         "I misread the schedule: Aya's train arrives at 7 p.m. on Friday.", "time"),
        # Retold in fewer words (the piano, the music school), as a marked text may be.
        ("Sophie's piano lesson is at 4 p.m. on Friday at the music school.",
         "Sophie's piano lesson is at 5 p.m. on Friday; I misread the calendar.", "time"),
        ("マスターの歯医者の予約は木曜日だった。", "勘違いしていた。歯医者の予約は金曜日だった。",
         "time"),
    ],
)  # fmt: skip
def test_the_diarists_admission_of_a_slip_says_the_text_corrects(
    old: str, new: str, kind: str
) -> None:
    assert corrects(old, new) == kind


@pytest.mark.parametrize(
    ("old", "new"),
    [
        # The diarist's own train, and a slip of a deed (the wrong train taken).
        ("マスターの電車は8時40分に出る。", "私の電車は9時10分に出る。時刻表を見間違えた。"),
        ("マスターは10時の電車に乗った。", "11時の電車に乗った。乗り間違えた。"),
        ("Aya swam 1 km at the pool on Tuesday.", "I swam 2 km on Tuesday. I miscounted the laps."),
        ("On the way to Kyoto, Ken misread the map.", "On the way to Nara, I misread the map."),
        ("10時に、アヤが部屋を間違えた。", "11時に、ケンが部屋を間違えた。"),
        ("土曜日のパーティーにはアヤと一緒に行った。",
         "日曜日のパーティーに行った。場違いだった。"),
        ("Master took the 8:10 train to Osaka.",
         "I took the 9:10 train to Osaka; I took the wrong train."),
    ],
)  # fmt: skip
def test_a_slip_beside_another_party_or_of_a_deed_is_no_correction(old: str, new: str) -> None:
    assert corrects(old, new) is None


def test_a_relative_for_the_opposite_one_is_a_person_corrected() -> None:
    # WordNet opposes daughter and son: one relative for another, not an outcome turned;
    # unless a deed is denied in one text (his mother doesn't smoke: two facts).
    assert (
        corrects(
            "母の日のケーキを焼いたのはマスターの娘さんだった。",
            "実は、母の日のケーキを焼いたのは息子さんだった。",
        )
        == "person"
    )
    assert corrects("Ken's father smokes.", "Ken's mother doesn't smoke.") is None
    assert corrects("Ken's grandfather is tall.", "Ken's grandmother is short.") is None
    assert corrects("Ken's brother arrived.", "Ken's sister didn't come.") is None
    assert corrects("アヤの弟は犬が好きだ。", "アヤの妹は犬が好きではない。") is None


def test_an_admission_is_a_clause_of_a_slip_of_knowing_and_no_more() -> None:
    assert without_correction_marks("It was 30 laps; I misheard her.", "It was 20 laps.") == (
        "It was 30 laps."
    )
    assert without_correction_marks("I got the date wrong: it is Friday.", "") == "it is Friday."
    assert without_correction_marks("私の記憶違いだった。会議は木曜だった。", "") == (
        "会議は木曜だった。"
    )
    for admitted in (
        "案内のメールを見間違えていた。",
        "私の間違いだった。",
        "自分の勘違いだった。",
    ):
        assert without_correction_marks(admitted, "") == ""
    # The older memory's own slip is a fact it tells, not a mark.
    own = "I misread the letter: the check is on June 8."
    assert without_correction_marks(own, "", correcting=False) == own
    for kept in (
        # A slip of a deed or of telling, one told with a value, a time, a name or the
        # diarist's own thing, a denial, a tally.
        "I misplaced the keys.",
        "I slipped on the ice.",
        "It starts at 7; I had noted the wrong time.",
        "I got nearly everything wrong.",
        "I got three questions wrong.",
        "I miscounted last week.",
        "I confused her with Rui's cousin.",
        "I misread my ticket: the train leaves at 9:10.",
        "I misread nothing.",
        # A comma sets apart no fact: what is left is a phrase (In May).
        "In May, I misaddressed the wedding invitations.",
        "1万円と勘違いしていた。",
        "塩と砂糖を間違えて入れた。",
        "電車を間違えた。",
        "間違えた。",
        "取り違えた。",
        "ケンの話を誤解していた。",
        "母の気持ちを誤解していた。",
        "勘違いしていなかった。",
        # Another's slip, regret, a difference, a place or a crossing: no slip of knowing.
        "勘違いされた。",
        "勘違いしやすい。",
        "勘違いだったのか。",
        "誤解だった。",
        "型違いだった。",
        "解釈違いだった。",
        "I confused the audience.",
        "I mixed up the batter.",
        "I'd mix up the times otherwise.",
        "誤解があった。",
        "あれは間違いだった。",
        "間違いだった。",
        "値段の違いは500円だった。",
        "場違いだった。",
        "入れ違いだった。",
        "あ" * 60_000 + "違い",
    ):
        assert without_correction_marks(kept, "") == kept


def test_a_slip_owned_up_to_leaves_out_no_value_and_no_name() -> None:
    # It says something was wrong, not what: the day left out tells another run, and
    # Aya's table is not the one "for us".
    assert corrects("Aya ran 5 km on Monday.", "I misread the map. Aya ran 8 km.") is None
    assert (
        corrects(
            "Aya's table at the restaurant is booked for 7.",
            "I misread the confirmation: the table for us is booked for 8.",
        )
        is None
    )
    assert (
        corrects("Aya's twins are called Ren and Rin.", "Ken's twins are called Sho and Sae.")
        is None
    )
    # Another owner of the thing (Aya's daughter's recital is not Aya's), a plan left out
    # (約束した: promised, not done), the diarist's own flight beside the manager's.
    assert (
        corrects(
            "Aya's daughter's piano recital starts at 6.",
            "Aya's piano recital starts at 7. I misread the flyer.",
        )
        is None
    )
    assert (
        corrects("ケンは5000円返すと約束した。", "ケンは3000円返した。思い違いをしていた。") is None
    )
    assert (
        corrects("部長の飛行機は9時に出る。", "私の飛行機は10時に出る。旅程表を見間違えていた。")
        is None
    )


def ranked(memory_id: str, supersedes: str = "") -> Ranked:
    links = (Link(supersedes, LinkType.SUPERSEDES),) if supersedes else ()
    memory = Memory(memory_id, memory_id, datetime(2026, 5, 1, tzinfo=UTC), linked_ids=links)
    return Ranked(SearchHit(memory, 0.5))


def test_a_chain_of_corrections_comes_newest_first() -> None:
    # c corrects b, which corrects a; ranked a, c, b by score.
    order = newer_first([ranked("a"), ranked("c", supersedes="b"), ranked("b", supersedes="a")])
    assert [item.memory.id for item in order] == ["c", "b", "a"]
    lone = [ranked("x"), ranked("y", supersedes="gone")]
    assert newer_first(lone) == lone


def test_one_prepositions_object_is_one_slot_whatever_the_parse_labels_it() -> None:
    # The small model labels "for Mochi" a dative in one text and a "for" phrase in the
    # other: one slot, so the number is the one fact corrected.
    assert (
        corrects(
            "Master bought three bags of cat food for Mochi at the pet shop today.",
            "Actually, Master bought five bags of cat food for Mochi at the pet shop today.",
        )
        == "number"
    )


def test_correction_set_apart_by_a_full_stop_marks_the_text() -> None:
    # 訂正 and "Correction" with a full stop mark the text as with a colon, a reason
    # sentence after it too; 訂正、 is no marker (訂正、3か所あった: three corrections).
    assert (
        corrects(
            "マスターの歯医者の予約は金曜日の午後5時。", "訂正。歯医者の予約は金曜の午後3時だった。"
        )
        == "time"
    )
    assert (
        corrects(
            "The dentist appointment is on Friday at 5 pm.",
            "Correction. The dentist appointment is on Friday at 3 pm. I called the clinic.",
        )
        == "time"
    )
    assert corrects("マスターの原稿に誤字が5か所あった。", "訂正、3か所あった。") is None
    assert without_correction_marks("Correction. The bus leaves at 7:45.", "") == (
        "The bus leaves at 7:45."
    )


def test_what_was_heard_from_someone_is_a_report_as_what_was_said() -> None:
    # "heard from Master that…" frames a clause as "Master told me" does; hearing a
    # sound, or another's hearing with no one it came from, frames none.
    assert (
        corrects(
            "Master's party is on Saturday at 7.",
            "I heard from Master that the party is on Saturday at 8.",
        )
        == "number"
    )
    # The one it was heard from goes with the hearing, as a teller goes with the telling.
    assert (
        corrects(
            "The party is on Saturday at 7.", "I heard from Ken that the party is on Saturday at 8."
        )
        == "number"
    )
    assert (
        corrects("The fireworks started at 7 pm.", "I heard the fireworks start at 8 pm.") is None
    )
    assert (
        corrects(
            "The festival drums started at 5 pm.",
            "I heard the festival drums start at 9 pm, not 5.",
        )
        is None
    )
    assert (
        corrects(
            "Master's party is on Saturday at 7.",
            "Master's wife heard the party is on Saturday at 8.",
        )
        is None
    )


def test_a_value_beside_an_opposite_is_two_facts() -> None:
    # The start for the end, and a time: not the end's time corrected.
    assert (
        corrects(
            "Master's meeting with the client ended at 2 pm.",
            "The meeting's start was at 1 pm, not 2.",
        )
        is None
    )
