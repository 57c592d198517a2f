"""The guard's judgement: refused only when the two texts are equivalent, both ways."""

from __future__ import annotations

import pytest

from ego_mcp.memory.guard import TOO_LONG, Verdict, compare, corrects, differences, mergeable
from ego_mcp.memory.guard.analysis import read
from ego_mcp.memory.guard.english import with_the_diarist


def verdict(existing: str, new: str) -> Verdict:
    return differences(existing, new)[0]


def both_ways(first: str, second: str) -> tuple[Verdict, Verdict]:
    """The verdict on each text saved beside the other."""
    return verdict(first, second), verdict(second, first)


@pytest.mark.parametrize(
    ("existing", "new"),
    [
        ("Master sneezed all morning.", "All morning, Master sneezed."),  # reorder
        ("Ｂｌｕｅ Envelope #１４ arrived.", "Blue Envelope #14 arrived."),  # full width
        ("Master recommended a podcast.", "Master reccomended a podcast."),  # misspelt
        ("Master has hay fever again.", "Master has hayfever again."),  # one word or two
        ("Rui lost his first tooth.", "Rui lost his frist tooth."),  # a misspelt number word
        ("Master fell asleep on the sofa.", "Master dozed off on the sofa."),  # WordNet's verbs
        ("Tea in the afternoon.", "Tea in the afternon."),  # a misspelt date word
        ("Emi works in PR.", "Emi works in public relations."),  # one synset in WordNet
        ("We met on Wed.", "We met on Wednesday."),
        ("Master doesn't like horror films.", "Master does not like horror films."),
        ("Master ordered a dozen roses.", "Master ordered 12 roses."),
        ("Master paid $30 for the lamp.", "Master paid thirty dollars for the lamp."),
        ("The party starts at 7 p.m. on Saturday.", "The party starts at 19:00 on Saturday."),
        ("マスターの車検の期限は2025年6月5日だ。", "マスターの車検の期限は2025/6/5だ。"),
        ("The train leaves at a quarter to eight in the evening.", "The train leaves at 7:45 pm."),
        ("The bill is due on the 28th of November.", "The bill is due on Nov. 28."),
        ("Master bought a new sofa.", "Master bought a new couch."),  # WordNet synonyms
        ("The cake was baked by Master.", "Master baked the cake."),  # voice
        ("Ken headed for Osaka.", "Ken headed to Osaka."),  # a goal either way
        ("I took the 6:30 train.", "I took the train at 6:30."),
        ("Master got home at 10 pm last night.", "Yesterday Master got home at 10 pm."),
        ("Master went jogging this morning.", "Master went jogging in the morning today."),
        ("She suffers from migraines.", "She suffers with migraines."),  # no party: a cause
        ("Ken built the shed from pallets.", "Ken built the shed with pallets."),  # a material
        ("Repaired the fence with Master.", "I repaired the fence with Master."),  # diary "I"
        ("Ken sold his bike to Master.", "Master bought a bike from Ken."),  # converse verbs
        ("Master didn't forget the keys.", "Master remembered the keys."),  # negated antonym
        ("Master was not present at the dinner.", "Master was absent from the dinner."),
        ("今日の会話は楽しかった。", "今日の会話は、楽しかった。"),
        ("マスターは林檎を五個買った。", "マスターはりんごを5個買った。"),  # kana / kanji
        ("近所のネコが昼寝していた。", "近所の猫が昼寝していた。"),
        ("新しいコンピューターを買った。", "新しいコンピュータを買った。"),  # long vowel
        ("発表会は十二月三日の午後三時半から。", "発表会は12/3の15時30分から。"),
        ("マスターは友達と会った。", "マスターは友だちと会った。"),  # okurigana
        ("マスターは来月引っ越しをする。", "マスターは来月引越しをする。"),  # Sudachi's normal form
        ("マスターはパンを買った。", "マスターはパンを購入した。"),  # Sudachi's synonym group
        ("夕日を見た。", "私は夕日を見た。"),  # the implicit first person
        ("マスターは部長に褒められた。", "部長がマスターを褒めた。"),  # passive: に is the doer
        ("マスターは同僚に食事に誘われた。", "同僚がマスターを食事に誘った。"),  # its first に
        ("実家は祖父によって建てられた。", "祖父が実家を建てた。"),  # によって names the doer
        ("財布はケンに盗まれた。", "ケンが財布を盗んだ。"),  # stolen by Ken: no giving
        ("キャンプは真央さんにより計画された。", "真央さんがキャンプを計画した。"),
        ("マスターに説明してもらった。", "マスターが説明してくれた。"),  # a favour received
        ("雨が降るらしい。", "雨が降るそうだ。"),  # two words for hearsay
        ("図書館で二時間半勉強した。", "図書館で2.5時間勉強した。"),  # a duration's half
        ("マスターはケンに古いカメラを売った。", "ケンはマスターから古いカメラを買った。"),
        # A passive with an object: the subject's thing (bite: no recipient in WordNet's
        # frames), or given to the subject (teach: "teaches somebody something").
        ("ケンは犬に足を噛まれた。", "犬がケンの足を噛んだ。"),
        ("ケンは先生に英語を教えられた。", "先生がケンに英語を教えた。"),
        # A passive that names no doer, and "someone" as the doer (で is no party).
        ("自転車が駅で盗まれた。", "誰かが駅で自転車を盗んだ。"),
        ("自転車が駅で誰かに盗まれた。", "誰かが駅で自転車を盗んだ。"),
        # Of two に phrases, the one that names someone is the doer; the other, a time.
        ("マスターは散歩中にカラスに頭をつつかれた。", "散歩中にカラスがマスターの頭をつついた。"),
        ("The window was broken yesterday.", "Someone broke the window yesterday."),
        # A passive participle is the state it names, with its particle (WordNet's
        # adjectives): annoyed / irritated, worn out / exhausted.
        ("Ken is annoyed about the delay.", "Ken is irritated about the delay."),
        ("The hikers were worn out by evening.", "The hikers were exhausted by evening."),
        # A compound WordNet lists joins its head's senses; its modifier stays a word.
        ("Ken asked a store clerk for help.", "Ken asked a shop assistant for help."),
        # The small model's "Ken borrowed" (a name as an adverbial noun): the subject.
        ("Yuki lent her bicycle to Ken.", "Ken borrowed Yuki's bicycle."),
        ("Emi painted Master.", "Master was painted by Emi."),  # the order read, the voice
        ("Ken met Emi in Kyoto.", "In Kyoto, Ken met Emi."),  # a place may stand anywhere
        ("Mom hugged Dad.", "Dad was hugged by Mom."),
        ("Emi praised by Master.", "Master praised Emi."),
        ("Emi borrowed Master's umbrella.", "Master lent Emi his umbrella."),  # a converse
        # A verb's antonym is its whole WordNet sense: accept / refuse, so decline.
        (
            "Ken didn't accept the invitation to the wedding.",
            "Ken declined the invitation to the wedding.",
        ),
        # What another said, however reported: a neutral verb of saying (WordNet's senses
        # of say and talk) quoting it, or the hearsay of そうだ.
        ("マスターは今日は疲れたと言っていた。", "マスターは今日は疲れたそうだ。"),
        ("マスターは今日は疲れたと言っていた。", "マスターは今日は疲れたと話していた。"),
        ("マスターは明日行くって言ってた。", "マスターは明日行くと言っていた。"),
        # A possessive written without its apostrophe, where a possessive stands.
        ("Ken's dog barked at the mailman.", "Kens dog barked at the mailman."),
        # A quote in brackets is a quote.
        ("ケンは「来る」と言った。", "ケンは来ると言った。"),
        # A noun that modifies another, or that a numeral counts, has no number of its own.
        ("Master watched a documentary about glaciers.", "Master watched a glacier documentary."),
        # A causative JMdict lists as a verb of its own is that verb (驚かせる: surprise).
        ("マスターはケンを驚かせた。", "マスターはケンを驚かした。"),
        # A topic with an attribute or a part of the body as its subject owns it.
        ("ケンは髪が長い。", "ケンの髪は長い。"),
        ("マスターは身長が180センチだ。", "マスターの身長は180センチだ。"),
        ("駅は5時に人で一杯だった。", "駅は5時に人でいっぱいだった。"),  # 一杯 is no count here
        # A report told with って before a full stop, as そうだ tells it; なさる is する.
        (
            "マスター、今日は残業で帰りが遅くなるって。",
            "マスターは今日、残業で帰りが遅くなるそうです。",
        ),
        ("マスターは会議に出席した。", "マスターは会議にご出席なさった。"),
        ("いずれにせよ、マスターは来週引っ越す。", "マスターは来週引っ越す。"),  # no order
        ("マスターは私に明日来るって。", "マスターは明日来るって。"),  # Master speaks
        ("No one came to the party.", "Nobody came to the party."),  # no number
        # An abbreviation WordNet lists with or without its period; a weekday's short form.
        ("Mrs. Okafor gave Master some jam.", "Mrs Okafor gave Master some jam."),
        ("Prof. Lindqvist emailed Master.", "Professor Lindqvist emailed Master."),
        (
            "The concert is at 8 p.m. on Friday, 5 December.",
            "The concert is at 20:00 on Fri, 5 Dec.",
        ),
    ],
)
def test_the_same_facts_however_written_are_a_duplicate(existing: str, new: str) -> None:
    assert differences(existing, new) == (Verdict.DUPLICATE, ())
    assert compare(existing, new, similarity=0.9, threshold=0.78).duplicate


@pytest.mark.parametrize(
    ("existing", "new", "what"),
    [
        ("Blue Envelope #14 arrived.", "Blue Envelope #15 arrived.", "number: 14 → 15"),
        ("ビスケットは一日三個まで。", "ビスケットは一日五個まで。", "number: 3 → 5"),
        ("Master moved to the third floor.", "Master moved to the fifth floor.", "number"),
        ("We met on Monday at the cafe.", "We met on Tuesday at the cafe.", "time"),
        ("去年、北海道に行った。", "今年、北海道に行った。", "time"),
        ("I liked the new album.", "I didn't like the new album.", "negation"),
        ("マスターはその映画が好きだった。", "マスターはその映画が好きではなかった。", "negation"),
        ("Lunch with Aoi at noon.", "Lunch with Ren at noon.", "Ren"),
        ("Meeting Émile at noon.", "Meeting Élodie at noon.", "Élodie"),
        ("I owe Tom 50 dollars.", "Tom owes me 50 dollars.", "roles"),
        ("Ken taught Master to swim.", "Master taught Ken to swim.", "roles"),
        ("太郎は花子に本を貸した。", "花子は太郎に本を貸した。", "roles"),
        ("The bus went from Kyoto to Nara.", "The bus went from Nara to Kyoto.", "direction"),
        ("The sale runs from Monday to Friday.", "The sale runs from Friday to Monday.", "time"),
        ("駅から会社まで歩いた。", "会社から駅まで歩いた。", "direction"),
        # A bare gerund after "from" or "into" is the preposition's object, as a noun is.
        (
            "Master moved $2,000 from checking into savings.",
            "Master moved $2,000 from savings into checking.",
            "direction",
        ),
        (
            "Master switched from swimming to cycling.",
            "Master switched from cycling to swimming.",
            "direction",
        ),
        # 一杯, 一人: words listed whole, counts where the text counts elsewhere too.
        ("コーヒーを二杯、紅茶を一杯飲んだ。", "コーヒーを一杯、紅茶を二杯飲んだ。", "bound"),
        ("店に子供が一人と大人が二人来た。", "店に子供が二人と大人が一人来た。", "bound"),
        ("Master called Anna before the party.", "Master called Anna after the party.", "order"),
        ("Tom almost died in the crash.", "Tom died in the crash.", "qualifier: almost"),
        ("I used to love coffee.", "I love coffee.", "qualifier"),
        ("Master might visit Osaka.", "Master will visit Osaka.", "qualifier"),
        ("Master is cooking dinner.", "Master will cook dinner.", "qualifier: — → will"),
        ("Master met Dr. Sato.", "Master met Mr. Sato.", "Mr."),
        # What was forgotten keeps its own tense (to take it / that he took it).
        (
            "傘を持っていくのを忘れた。",
            "傘を持っていったのを忘れた。",
            "tense: 持つの (now → past)",
        ),
        # The substitute "one" is no number: the accounts trade places.
        (
            "Master moved £300 from the joint account to his personal one.",
            "Master moved £300 from his personal account to the joint one.",
            "roles",
        ),
        ("Master ate all of the grapes.", "Master ate some of the grapes.", "qualifier"),
        ("If it snows, Master stays home.", "It snows, and Master stays home.", "qualifier"),
        ("Master asked whether Ken was coming.", "Ken was coming.", "qualifier"),
        ("Master thinks the shop is closed.", "The shop is closed.", "qualifier"),
        ("東京に引っ越したい。", "東京に引っ越した。", "qualifier: たい"),
        ("マスターは危うく転んだ。", "マスターは転んだ。", "qualifier"),
        ("Ken is older than Master.", "Master is older than Ken.", "roles"),
        (
            "Master likes tea and Ken likes coffee.",
            "Master likes coffee and Ken likes tea.",
            "roles",
        ),
        (
            "Master paid 300 yen for the pen and 900 yen for the notebook.",
            "Master paid 900 yen for the pen and 300 yen for the notebook.",
            "number: bound to another word",
        ),
        ("平日は6時、休日は9時に起きる。", "平日は9時、休日は6時に起きる。", "bound"),
        ("Ken left for Osaka.", "Ken left from Osaka.", "roles"),  # the source and a goal
        (  # a clock time before a noun is that thing's
            "We left at 6:00 for the 10:00 wedding.",
            "We left at 10:00 for the 6:00 wedding.",
            "bound to another word",
        ),
        ("Ken bought a cake for Aya.", "Ken bought a cake from Aya.", "roles"),
        ("The lesson is with the new teacher.", "The lesson is without the new teacher.", "roles"),
        # Dates joined by the other separator are two dates (an interval, a path).
        (
            "The conference runs 2025-06-06/2025-06-07.",
            "The conference runs 2025-06-06/2025-07-06.",
            "time",
        ),
        ("The trip is 2025/6/5-2025/6/7.", "The trip is 2025/5/6-2025/7/6.", "time"),
        (
            "The flight is at 9:00 on Monday and the meeting at 11:00 on Tuesday.",
            "The flight is at 9:00 on Tuesday and the meeting at 11:00 on Monday.",
            "bound to another word",
        ),
        ("姉はコーヒーが好きで、弟は紅茶派だ。", "姉は紅茶が好きで、弟はコーヒー派だ。", "roles"),
        (
            "会議では、田中さんが資料を配り、佐藤さんが議事録を取った。",
            "会議では、佐藤さんが資料を配り、田中さんが議事録を取った。",
            "roles",
        ),
        (
            "Master washed the car and then cooked dinner.",
            "Master cooked dinner and then washed the car.",
            "order",
        ),
        ("Master won the final.", "Master lost the final.", "opposite"),
        ("Master beat Ken.", "Master lost to Ken.", "lost"),
        ("Master praised Ken.", "Ken criticized Master.", "opposite"),  # antonyms, no converse
        ("Master didn't lend his umbrella to Emi.", "Emi borrowed Master's umbrella.", "negation"),
        ("Ken sold his bike to Master.", "Master didn't buy a bike from Ken.", "negation"),
        ("雨が降るそうだ。", "雨が降った。", "qualifier: hearsay"),
        ("3時間歩いた。", "3時に歩いた。", "time"),  # a duration is no time of day
        ("雨が降りそうだ。", "雨が降るそうだ。", "qualifier: looks → hearsay"),
        ("マスターは財布を盗まれた。", "マスターは財布を盗んだ。", "someone"),
        ("自転車が駅で盗まれた。", "駅で自転車を盗んだ。", "someone"),  # not the diarist
        ("The window was broken yesterday.", "I broke the window yesterday.", "someone → I"),
        ("Ken accepted the invitation.", "Ken declined the invitation.", "opposite"),
        ("The window was broken yesterday.", "Broke the window yesterday.", "someone → I"),
        # A passive with an object of a verb that gives: a thing given to him, not his.
        ("ケンはエミに手紙を送られた。", "エミがケンの手紙を送った。", "roles"),
        ("ケンは犬に足を噛まれた。", "犬がケンに足を噛んだ。", "roles"),
        ("昨日、夕飯を作ってもらった。", "昨日、夕飯を作った。", "qualifier"),  # done for me
        ("引っ越しを手伝ってくれた。", "引っ越しを手伝った。", "qualifier: favour"),
        ("ケンは忙しそうだ。", "ケンは忙しいらしい。", "qualifier: looks → hearsay"),
        ("ケンは髪が長く、エミは髪が短い。", "ケンは髪が短く、エミは髪が長い。", "roles"),
        ("マスターはケンにカメラを売った。", "マスターはケンのカメラを売った。", "roles"),
        ("Ken moved to LA.", "Ken moved to Los Altos.", "Altos"),  # initials prove nothing
        ("I read The Sun.", "I read on Sunday.", "time"),
        ("Yuki lent her bicycle to Ken.", "Yuki borrowed Ken's bicycle.", "negation"),
        # Sentences the small model parses with no verb at the root ("Emi called Ken." as
        # "a man called Ken", "Emi painted Master." as a painted Master): word order.
        ("Emi called Ken.", "Ken called Emi.", "roles"),
        ("Master painted Emi.", "Emi painted Master.", "roles"),
        ("A dog called Rex.", "Rex called a dog.", "roles"),
        # Where the parse gives a name (or a person, an animal) no role, its order decides.
        ("Ken hugs Emi.", "Emi hugs Ken.", "order"),
        ("Haru painted Mia.", "Mia painted Haru.", "order"),  # Haru tagged a verb
        ("Dog bites man.", "Man bites dog.", "order"),
        ("Ken's dog bit Emi's cat.", "Emi's dog bit Ken's cat.", "order"),  # other things owned
        ("Ken works under Emi.", "Emi works under Ken.", "order"),  # "under" makes no party
        ("Emi praised by Master.", "Master praised by Emi.", "roles"),  # a note's passive
        ("Ken bought a dog house.", "Ken bought a house dog.", "order"),  # a compound turned
        # The small model lemmatises scraped "scrap": a stem in e is read by the spelling.
        ("The car was scraped.", "The car was scrapped.", "words"),
        ("Ken stared at the sky.", "Ken starred at the sky.", "words"),
        # 夫 also writes つま ("wife") in JMdict: the analyser's reading おっと decides.
        ("ケンは夫と旅行した。", "ケンは妻と旅行した。", "夫 → 妻"),
        # A report is no belief, no question and no fact told as the diarist's own.
        ("マスターは今日は疲れたと言っていた。", "マスターは今日は疲れたと思っていた。", "思う"),
        ("マスターは雨だと言った。", "マスターは雨かと聞いた。", "?"),
        ("マスターは今日は疲れたと言っていた。", "マスターは今日は疲れた。", "hearsay"),
        ("ケンはマスターが疲れたと言っていた。", "マスターは疲れたそうだ。", "ケン"),
        # A causative no dictionary lists on its own is one (made to eat: not ate).
        ("母は子供に野菜を食べさせた。", "子供が野菜を食べた。", "せる"),
        ("マスターはケンを驚かせた。", "ケンはマスターを驚かせた。", "roles"),
        # する is no stem of a lexicalised causative, nor is a quoted predicate.
        ("マスターはケンに勉強させた。", "マスターはケンに掃除させた。", "勉強 → 掃除"),
        ("ケンに明日来ると知らせた。", "ケンに明日休むと知らせた。", "来る → 休む"),
        # The diarist's own saying, and a manner of speech, are no hearsay.
        ("私はケンが来ると言った。", "ケンが来るそうだ。", "hearsay"),
        ("マスターはケンが来ると叫んだ。", "マスターはケンが来ると言った。", "叫ぶ"),
        # A denied saying is no saying of a denial; a final って is no plain fact.
        ("マスターは来ないと言った。", "マスターは来ると言わなかった。", "negation"),
        ("マスターは疲れたって。", "マスターは疲れた。", "hearsay"),
        ("マスターは疲れたって\nケンは元気だ", "マスターは疲れた\nケンは元気だ", "って"),
        ("マスターは疲れたって（笑）", "マスターは疲れた（笑）", "って"),
        # English number and degree, read from the words' forms.
        ("Ken works harder now.", "Ken works hard now.", "harder → hard"),
        ("Ken ran farther.", "Ken ran far.", "farther → far"),  # WordNet's irregular forms
        ("Ken saw a wolf.", "Ken saw wolves.", "wolf → wolves"),
        ("Ken fed the mouse.", "Ken fed the mice.", "mouse → mice"),
        ("The Smiths visited Emi.", "Smith visited Emi.", "Smith"),  # a family, no possessive
        # A topic and its が: who does what to whom, in a chain of verbs, of a feeling,
        # of a telling (the topic is read as the subject; a thing as the topic is not
        # read as the object, as no rule kept its doer with it: ケーキはアヤが、パンは
        # ケンが焼いた / アヤがパンを、ケンがケーキを焼いた).
        ("マスターはケンを殴って、逃げた。", "ケンはマスターを殴って、逃げた。", "roles"),
        (
            "マスターはケンに電話して、駅に向かった。",
            "ケンはマスターに電話して、駅に向かった。",
            "roles",
        ),
        ("マスターはアヤが怖かった。", "アヤはマスターを怖がっていた。", "roles"),
        ("マスターはケンが好きだ。", "ケンがマスターを好きだ。", "roles"),
        (
            "マスターはアヤがケーキを焼いたと言った。",
            "アヤはマスターにケーキを焼いたと言った。",
            "roles",
        ),
    ],
)
def test_a_fact_that_differs_is_distinct(existing: str, new: str, what: str) -> None:
    found_verdict, found = differences(existing, new)
    assert found_verdict is Verdict.DISTINCT, found
    assert any(what in item for item in found), found


@pytest.mark.parametrize(
    ("existing", "new"),
    [
        # A topic (は) and a が: which doer goes with which thing, a sayer, what is
        # wanted, a place, a topic of another verb or of an intransitive one, "from".
        ("ケーキはアヤが、パンはケンが焼いた。", "アヤがパンを、ケンがケーキを焼いた。"),
        ("新聞はケンが盗んだと書いた。", "ケンが新聞を盗んだと書いた。"),
        ("私はケンが助けたい。", "ケンが私を助けたい。"),
        ("うちは母が作る。", "母がうちを作る。"),
        ("バスは、ケンが乗る前に出た。", "ケンがバスに乗る前に出た。"),
        ("このチームは監督が変わった。", "監督がこのチームを変えた。"),
        ("病院はアヤが電話した。", "アヤが病院から電話した。"),
        ("家ではケンが作る。", "ケンが家を作る。"),  # で: where, never what is made
        # A thing told of one verb in one text and of the other in the other, both texts
        # having both verbs: what each was done to changed.
        ("窓はケンが開けた。ドアはアヤが閉めた。", "ケンがドアを開けた。アヤが窓を閉めた。"),
        ("ケーキはアヤが焼いた。パンはケンが買った。", "アヤがパンを焼いた。ケンがケーキを買った"),
    ],
)
def test_a_topic_and_its_ga_are_never_read_into_a_restatement(existing: str, new: str) -> None:
    assert Verdict.DUPLICATE not in both_ways(existing, new)


@pytest.mark.parametrize(
    ("existing", "new"),
    [
        ("ケンだけが来た。", "ケンが来た。"),  # only Ken came / Ken came
        ("アヤはケーキしか食べなかった。", "アヤはケーキを食べた。"),
        ("マスターは少しだけ寝た。", "マスターは寝た。"),
        ("アヤばかり話していた。", "アヤが話していた。"),
        ("Only Ken came to the party.", "Ken came to the party."),
    ],
)
def test_a_focus_word_for_only_is_a_qualifier(existing: str, new: str) -> None:
    for first, second in ((existing, new), (new, existing)):
        verdict, found = differences(first, second)
        assert verdict is Verdict.DISTINCT, found
        assert any(item.startswith("qualifier") and "only" in item.lower() for item in found)


@pytest.mark.parametrize(
    ("existing", "new"),
    [
        ("Master slept eight hours.", "Master slept about eight hours."),
        ("Master slept 8 hours.", "Master slept around 8 hours."),
    ],
)
def test_an_estimate_of_a_number_is_a_qualifier(existing: str, new: str) -> None:
    for first, second in ((existing, new), (new, existing)):
        verdict, found = differences(first, second)
        assert verdict is Verdict.DISTINCT, found
        assert any("approximately" in item for item in found), found
    assert differences("Master slept about 8 hours.", "Master slept roughly 8 hours.")[0] is (
        Verdict.DUPLICATE
    )


@pytest.mark.parametrize("about", ["くらい", "ぐらい", "ほど"])
def test_a_particle_of_approximation_is_a_qualifier(about: str) -> None:
    verdict, found = differences("マスターは3時間寝た。", f"マスターは3時間{about}寝た。")
    assert verdict is Verdict.DISTINCT, found
    assert found == ("qualifier: — → approximately",)


@pytest.mark.parametrize(
    ("existing", "new"),
    [
        ("アヤはケーキしか食べなかった。", "アヤはケーキだけ食べた。"),  # しか…ない is "only"
        ("アヤはケーキのみ食べた。", "アヤはケーキだけ食べた。"),
        ("冷蔵庫には牛乳しかない。", "冷蔵庫には牛乳だけある。"),
        ("マスターは3時間ほど寝た。", "マスターは3時間くらい寝た。"),  # one "approximately"
    ],
)
def test_focus_words_of_one_meaning_are_a_restatement(existing: str, new: str) -> None:
    assert both_ways(existing, new) == (Verdict.DUPLICATE, Verdict.DUPLICATE)


@pytest.mark.parametrize(
    ("existing", "new"),
    [
        # Found by a review written blind to the code: each was refused.
        ("マスターだけが会議に出た。", "マスターは会議にだけ出た。"),  # only of another word
        ("マスターは朝だけコーヒーを飲む。", "マスターは朝コーヒーだけを飲む。"),  # of a time
        ("マスターは会社を辞めた。", "マスターは会社を辞めようとしている。"),  # volitional
        ("ケンの母はアヤの先生だ。", "アヤの母はケンの先生だ。"),  # owners of other nouns
        ("由紀こそマスターに謝るべきだ。", "マスターこそ由紀に謝るべきだ。"),  # こそ: the doer
        ("Master's rent went up this year.", "Master's rent went down this year."),
        ("Master left his keys inside the car.", "Master left his keys outside the car."),
        ("Master lives above the bakery.", "Master lives below the bakery."),
        ("Master left the keys on the table.", "Master left the keys under the table."),
        ("Ken moved out of Master's apartment.", "Ken moved into Master's apartment."),
        ("Master voted for the proposal.", "Master voted against the proposal."),
        # A third blind set: a number said of another subject; the subject of a second
        # verb the small model hangs on the first one's object.
        ("Master's daughter is 8 and his son is 5.", "Master's daughter is 5 and his son is 8."),
        (
            "Diego plays the drums and Priya plays the bass.",
            "Diego plays the bass and Priya plays the drums.",
        ),
        # A second review: the present of I, we, they; a verb of communication with an
        # object; ている of a deed going on; a focus on what no word stands for, or one
        # stand more; a number with its unit said of a subject.
        ("I live in Tokyo.", "I lived in Tokyo."),
        ("We are in Osaka.", "We were in Osaka."),
        ("Ken calls his mother every Sunday.", "Ken called his mother every Sunday."),
        ("雨が降っている。", "雨が降った。"),
        ("マスターは銀行で働いている。", "マスターは銀行で働いた。"),
        ("ケンだけがそれを知っていた。", "ケンはそれだけを知っていた。"),
        ("マスターだけがここに来た。", "マスターはここにだけ来た。"),
        ("ケーキを3個だけ食べた。", "ケーキだけを3個食べた。"),
        ("ケンだけがケーキを食べた。", "ケンだけがケーキだけを食べた。"),
        (
            "Ken's daughter is 8 years old and his son is 5 years old.",
            "Ken's daughter is 5 years old and his son is 8 years old.",
        ),
        (
            "The red shirt was 30 dollars and the blue one was 50 dollars.",
            "The red shirt was 50 dollars and the blue one was 30 dollars.",
        ),
        ("Only Master went to the concert.", "Master went only to the concert."),
        ("Even Ken liked the new recipe.", "Ken liked even the new recipe."),
        ("Master drinks coffee only in the morning.", "Master drinks only coffee in the morning."),
        ("Master only went to the concert.", "Only Master went to the concert."),
        ("Master's son turns 7 in March.", "Master's son turned 7 in March."),  # tense
        ("マスターは京都に行く。", "マスターは京都に行った。"),
        ("マスターは大阪に住んでいる。", "マスターは大阪に住んでいた。"),
        ("彩さんは韓国語を話せる。", "彩さんは韓国語を話す。"),  # can speak / speaks
        ("マスターは出社できなかった。", "マスターは出社しなかった。"),
        # A verb told twice, denied once in one text and never in the other.
        ("昨日はケンは来た。今日はアヤが来なかった。", "昨日はケンは来た。今日はアヤが来た。"),
        ("Ken came yesterday but didn't come today.", "Ken came yesterday and came today."),
        # A しか with no negation read ends with its sentence (ねえ is read as ね).
        (
            "昨日はケーキしか食べてねえ。マスターは店を開けなかった。",
            "昨日はケーキだけ食べた。マスターは店を開けた。",
        ),
        ("Master is reading the novel.", "Master has read the novel."),
        ("Ken is a teacher.", "Ken was a teacher."),  # "be" told in two tenses
        ("Master has been married for ten years.", "Master was married for ten years."),
        ("The meeting was moved from 5 pm to 3 pm.", "The meeting was moved from 3 pm to 5 pm."),
        (
            "The client meeting was moved to 3 pm from 5 pm.",
            "The client meeting was moved to 5 pm from 3 pm.",
        ),
    ],
)
def test_another_fact_a_review_found_refused_is_distinct(existing: str, new: str) -> None:
    assert both_ways(existing, new) == (Verdict.DISTINCT, Verdict.DISTINCT)


@pytest.mark.parametrize(
    ("existing", "new"),
    [
        ("人によって意見が違う。", "人の意見が違う。"),  # no passive: "depending on"
        ("ケンによって計画が変わった。", "ケンの計画が変わった。"),
        ("警察によりますと、ケンが逮捕されました。", "警察がケンを逮捕しました。"),  # according to
        ("場合によっては、ケンが選ばれる。", "場合がケンを選ぶ。"),
        ("場合により、ケンが選ばれる。", "場合がケンを選ぶ。"),
        ("ケンにより良い部屋が与えられた。", "ケンが良い部屋を与えた。"),  # より: "more"
        ("手紙は先生によって書かれた。", "先生へ手紙が書かれた。"),  # へ names no doer
        ("荷物はケンによって送られた。", "荷物はケンに送られた。"),  # sent to Ken
        ("先生によって生徒が走らされた。", "生徒が先生を走らせた。"),  # a causative
        (
            "実家は祖父によって建てられ、父によって直された。",
            "実家は父によって建てられ、祖父によって直された。",
        ),
    ],
)
def test_niyotte_that_names_no_passives_doer_is_never_read_as_one(existing: str, new: str) -> None:
    """によって and により are a passive's doer only where a passive follows in the
    sentence and nothing makes them "depending on", "according to" or "more"; a recipient
    (へ, or に after a verb that sends a thing) is never the doer (a review's pairs)."""
    assert Verdict.DUPLICATE not in both_ways(existing, new)


def test_an_adjectival_noun_before_a_noun_is_no_predicate() -> None:
    """新規事業: the adjectival noun written straight before a noun describes it, as a
    compound's first part, and ends no clause (the passive after it keeps its doer)."""
    restated = (
        "部長はマスターの企画書を新規事業に採用した。",
        "マスターの企画書は部長によって新規事業に採用された。",
    )
    assert both_ways(*restated) == (Verdict.DUPLICATE, Verdict.DUPLICATE)
    swapped = (
        "部長はマスターの企画書を新規事業に採用した。",
        "部長の企画書はマスターによって新規事業に採用された。",
    )
    assert both_ways(*swapped) == (Verdict.DISTINCT, Verdict.DISTINCT)


def test_niyotte_names_a_passives_doer_and_no_other_role() -> None:
    """によって and により before a passive are one case particle, "by": its doer (the
    verb よる is no word of the text); から names the one a thing was taken from as
    often, so it is never read as a doer."""
    assert both_ways("ケンはアヤにより部長に紹介された。", "アヤがケンを部長に紹介した。") == (
        Verdict.DUPLICATE,
        Verdict.DUPLICATE,
    )
    for existing, new in [
        ("アヤはケンによって褒められた。", "アヤがケンを褒めた。"),  # the roles reversed
        ("ケンはアヤにより部長に紹介された。", "部長がケンをアヤに紹介した。"),
        ("財布がケンによって盗まれた。", "財布がケンから盗まれた。"),  # the thief, the victim
        ("実家は祖父によって建てられた。", "実家は祖父のために建てられた。"),  # for him
    ]:
        assert both_ways(existing, new) == (Verdict.DISTINCT, Verdict.DISTINCT), (existing, new)


@pytest.mark.parametrize(
    ("existing", "new"),
    [
        ("I only had one beer.", "I had only one beer."),  # at the verb: what follows it
        ("Master only ate half the cake.", "Master ate only half the cake."),
        ("The shop is only open on Sundays.", "The shop is open only on Sundays."),
        ("Only the kids came to the party.", "Only the children came to the party."),
        ("Only Ken saw the movie.", "The movie was seen only by Ken."),  # the other voice
        ("コーヒーだけ飲んだ。", "珈琲だけ飲んだ。"),
    ],
)
def test_a_focus_at_the_verb_covers_what_follows_it(existing: str, new: str) -> None:
    assert both_ways(existing, new) == (Verdict.DUPLICATE, Verdict.DUPLICATE)


@pytest.mark.parametrize(
    ("existing", "new"),
    [
        ("Master has finished the trilogy.", "Master finished the trilogy."),  # perfect
        ("Master says the second book was the best.", "Master said the second book was the best."),
        ("Master is flying to Oslo.", "Master flies to Oslo."),
        ("I read the whole novel.", "I have read the whole novel."),  # read: either tense
        ("Ken says he is tired and wants to sleep.", "Ken said he was tired and wanted to sleep."),
        ("Ken mentioned that he is moving.", "Ken mentions that he is moving."),  # reported
        ("The house has been sold.", "The house was sold."),  # a perfect passive: the past
    ],
)
def test_one_time_told_in_two_tenses_is_one_fact(existing: str, new: str) -> None:
    assert both_ways(existing, new) == (Verdict.DUPLICATE, Verdict.DUPLICATE)


@pytest.mark.parametrize(
    ("existing", "new"),
    [
        ("マスターはもう報告書を提出した。", "マスターはもう報告書を提出してある。"),  # done
        ("マスターは京都に行きました。", "マスターは京都に行った。"),
        ("京都に行って、寿司を食べた。", "京都に行った。寿司を食べた。"),  # the て form
        ("マスターは泳げる。", "マスターは泳ぐことができる。"),  # one "can"
        ("マスターは毎朝ジョギングしている。", "マスターは毎朝ジョギングする。"),
        ("マスターはもう年賀状を書き終えた。", "マスターはもう年賀状を書き終えている。"),  # done
        ("マスターはもう家に帰っている。", "マスターはもう家に帰った。"),  # already: done
        ("Ken's daughters are 8 and 10.", "Ken's daughters are 10 and 8."),
    ],
)
def test_one_time_told_two_ways_in_japanese_is_one_fact(existing: str, new: str) -> None:
    assert both_ways(existing, new) == (Verdict.DUPLICATE, Verdict.DUPLICATE)


def test_a_particle_is_weighed_against_its_antonym_on_the_same_word_only() -> None:
    found = differences("The meeting was called off.", "The meeting on the budget was cancelled.")
    assert not any(item.startswith("direction") for item in found[1]), found


def test_even_is_emphasis_in_japanese_as_in_english() -> None:
    for pair in (("アヤさえ来なかった。", "アヤは来なかった。"), ("Even Ken came.", "Ken came.")):
        assert both_ways(*pair) == (Verdict.DUPLICATE, Verdict.DUPLICATE)


@pytest.mark.parametrize(
    ("existing", "new"),
    [
        ("The festival went ahead because of the rain.",
         "The festival went ahead despite the rain."),
        ("Ken stayed home because it rained.", "Ken stayed home although it rained."),
        ("The train was late owing to the snow.", "The train was late in spite of the snow."),
        ("雨が降ったので試合は中止になった。", "雨が降ったのに試合は中止になった。"),
        ("雨のせいで試合は中止になった。", "雨だけど試合は中止になった。"),
        ("雨が降ったから家にいた。", "雨が降ったが家にいた。"),
        # The subordinator hung on the auxiliary; despite with a gerund.
        ("Master stayed home because it was raining.",
         "Master stayed home although it was raining."),
        ("Because she was tired, Master cooked dinner.",
         "Despite being tired, Master cooked dinner."),
        # What comes before a clause connective (so, but; だから, でも, しかし).
        ("It rained, so Master stayed home.", "Master stayed home although it rained."),
        ("雨が降った。だから散歩は中止した。", "雨が降った。でも散歩は中止した。"),
        ("雨が降ったので散歩に行かなかった。", "雨が降った。しかし散歩に行かなかった。"),
    ],
)  # fmt: skip
def test_a_reason_given_as_the_cause_or_in_spite_of_it_is_another_fact(
    existing: str, new: str
) -> None:
    found_verdict, found = differences(existing, new)
    assert found_verdict is Verdict.DISTINCT
    assert any(line.startswith("qualifier: because → despite") for line in found)


@pytest.mark.parametrize(
    ("existing", "new"),
    [
        ("The game was postponed because of the storm.",
         "The game was postponed due to the storm."),
        ("The game went on although it rained.", "The game went on despite the rain."),
        ("雨が降ったので試合は中止になった。", "雨が降ったから試合は中止になった。"),
        ("The bill is due on the 28th of November.", "The bill is due on Nov. 28."),
        ("It rained, so Master stayed home.", "Master stayed home because it rained."),
        ("It was raining; however, the match went ahead.",
         "It was raining, but the match went ahead."),
        ("雨が降った。だから散歩は中止した。", "雨が降ったので散歩は中止した。"),
    ],
)  # fmt: skip
def test_a_reason_given_alike_in_other_words_is_a_restatement(existing: str, new: str) -> None:
    assert verdict(existing, new) is Verdict.DUPLICATE


@pytest.mark.parametrize(
    ("existing", "new", "what"),
    [
        # Whose fault it was keeps its role (ケンのせいで: Ken's doing).
        ("ケンのせいでマスターが怒った。", "マスターのせいでケンが怒った。", "roles"),
        ("遅れたのはケンのせいだ。", "遅れたのはケンのおかげだ。", "words"),  # no cause: で lacks
        ("Master said sorry to Ken.", "Master said thanks to Ken.", "words"),  # a thanking
    ],
)  # fmt: skip
def test_words_near_a_connective_keep_what_they_are(existing: str, new: str, what: str) -> None:
    found_verdict, found = differences(existing, new)
    assert found_verdict is Verdict.DISTINCT
    assert found[0].startswith(f"{what}:")


@pytest.mark.parametrize(
    ("existing", "new", "what"),
    [
        # An implicative verb is a fact of its own, and tells whether its complement
        # happened: forgot to lock is no locking, remembered to lock is one.
        ("Ken locked the door.", "Ken remembered to lock the door.", "qualifier: — → remembered"),
        ("Ken locked the door.", "Ken forgot to lock the door.", "negation: lock"),
        ("Ken forgot to lock the door.", "Ken didn't forget to lock the door.", "negation"),
        # Remembering to do it is doing it; remembering doing it is recalling it.
        ("Master remembered to lock the door.", "Master remembered locking the door.",
         "qualifier: remembered"),
        # One verb for another, affirmed in one text and denied in the other, is a
        # denial, not a rewording to merge.
        ("Ken walked to the station.", "Ken didn't go to the station.", "negation: walked → go"),
    ],
)  # fmt: skip
def test_an_implicative_or_a_denied_rewording_is_another_fact(
    existing: str, new: str, what: str
) -> None:
    found_verdict, found = differences(existing, new)
    assert found_verdict is Verdict.DISTINCT
    assert any(line.startswith(what) for line in found), found


def test_leaving_out_detail_is_a_possible_duplicate_never_a_refusal() -> None:
    found_verdict, found = differences(
        "Master sent me a long, rambling voice message from the airport.",
        "Master sent me a voice message from the airport.",
    )
    assert found_verdict is Verdict.POSSIBLE
    assert found == ("leaves out: long, rambling",)
    dropped_time = differences("Master framed the map last spring.", "Master framed the map.")
    assert dropped_time[0] is Verdict.POSSIBLE


def test_a_diarys_opening_verb_the_parse_misreads_is_the_diarists_deed() -> None:
    """Reminded Master to…: the small model reads "Reminded" as part of a noun and Master
    as the one who takes the pills; "Met" as a name. The diarist's "I" written out, the
    texts are the diarist's deed, as "I reminded Master to…" is. A participle before a
    clause of its own, or a name, is left as written."""
    for unsaid, said in [
        (
            "Reminded Master to take his pills this morning.",
            "I reminded Master to take his pills this morning.",
        ),
        ("Met Aya at the station.", "I met Aya at the station."),
    ]:
        assert both_ways(unsaid, said) == (Verdict.DUPLICATE, Verdict.DUPLICATE)
    assert verdict("Met Aya at the station.", "Ken met Aya at the station.") is Verdict.DISTINCT
    assert both_ways(
        "Reminded Master to take his pills.", "Master reminded me to take his pills."
    ) == (Verdict.DISTINCT, Verdict.DISTINCT)
    # A participle that is no past (broken, driven) and a passive's "by" are left as
    # written: the diarist did not break the vase, and Aya drove.
    for unsaid, said in [
        ("Broken vase in the hall.", "I broke the vase in the hall."),
        ("Driven home by Aya.", "I drove Aya home."),
    ]:
        assert Verdict.DUPLICATE not in both_ways(unsaid, said)
    for written in (
        "Reminded of the deadline, Master hurried.",
        "United won the match.",
        "Met by Aya at the station.",
    ):
        assert with_the_diarist(written) == written


def test_a_doer_left_unwritten_is_detail_left_out_not_another_person() -> None:
    """A diary leaves its doer unsaid (Renewed his licence); the person the other text
    names there is left out, a possible duplicate both languages flag. Named, told as the
    diarist, or one of two doers dropped, it is another person."""
    assert differences(
        "Master renewed his driver's license at the DMV today.",
        "Renewed his driver's license at the DMV today.",
    ) == (Verdict.POSSIBLE, ("leaves out: Master",))
    assert verdict("ケンは区役所で住民票を取った。", "区役所で住民票を取った。") is Verdict.POSSIBLE
    assert verdict("Went to the park.", "Master went to the park.") is Verdict.DISTINCT
    assert verdict("Master went to the park.", "I went to the park.") is Verdict.DISTINCT
    assert verdict("Master and Ken went to the park.", "Ken went to the park.") is Verdict.DISTINCT
    # Nor is a correction read where the doer is left unsaid: it may be the diarist's own.
    assert (
        corrects("ケンは市場でりんごを3個買った。", "りんごを6個買った。メモを読み間違えた。")
        is None
    )
    # The diarist named, or another party named, makes the unsaid doer the diarist's.
    assert verdict("健が風邪をひいた。", "私も風邪をひいた。") is Verdict.DISTINCT
    assert verdict("健がアヤと駅で会った。", "アヤと駅で会った。") is Verdict.DISTINCT
    assert verdict("ケンが夕食を作った。", "母と夕食を作った。") is Verdict.DISTINCT
    # A passive without its doer does not say who: not the named person left out.
    assert verdict("Master broke the window.", "The window was broken.") is Verdict.DISTINCT


def test_adding_a_fact_is_distinct() -> None:
    assert differences("Master bought a bike.", "Master bought a bike and a helmet.") == (
        Verdict.DISTINCT,
        ("adds: helmet",),
    )


def test_a_word_the_other_text_also_has_as_written_is_no_other_number() -> None:
    # "wolves" is in both: the wolf seen first is detail the shorter text leaves out.
    found_verdict, found = differences("Ken saw a wolf and later wolves.", "Ken saw wolves.")
    assert found_verdict is Verdict.POSSIBLE, found
    assert not any("wolf → wolves" in item for item in found), found


def test_a_text_too_long_to_read_word_by_word_is_never_refused() -> None:
    # 17,000 characters of Japanese: more than the analyser reads (49,149 bytes).
    long_japanese = "マスターは駅まで歩いた。" * 1_420
    other = long_japanese[:-12] + "マスターは駅まで走った。"
    assert differences(long_japanese, other) == (Verdict.POSSIBLE, (TOO_LONG,))
    assert differences(long_japanese, long_japanese + " ") == (Verdict.DUPLICATE, ())
    assert corrects(long_japanese, other) is None


def test_a_lexicalised_causative_is_a_verb_not_a_causative() -> None:
    # 済ませる is JMdict's "finish": a rewording of 終える, not "made to end".
    assert differences("息子は夕食前に宿題を終えた。", "息子は夕食前に宿題を済ませた。") == (
        Verdict.POSSIBLE,
        ("wording: 終え → 済ませ",),
    )


def test_words_that_share_a_meaning_are_no_opposites() -> None:
    """いらっしゃる is "to come, to go, to be": the honorific of 来る as of 行く. Sharing
    "come" with 来る, it is no opposite of it for "go"'s antonym; 行く and 来る are."""
    assert differences("先生は明日学校にいらっしゃる。", "先生は明日学校に来る。") == (
        Verdict.POSSIBLE,
        ("wording: いらっしゃる → 来る",),
    )
    assert corrects("先生は明日学校にいらっしゃる。", "先生は明日学校に来る。") is None
    assert verdict("先生は明日学校に来る。", "先生は明日学校に行く。") is Verdict.DISTINCT


def test_japanese_texts_that_read_alike_are_flagged_never_refused() -> None:
    """A slip of the input method (冷蔵庫の中見, 機能 for 昨日) reads as the text it slipped
    from, as two homophones do: the guard cannot tell them apart, so both are flagged. A
    question mark is read: a question is no statement."""
    assert differences("ケンは冷蔵庫の中身を片付けた。", "ケンは冷蔵庫の中見を片付けた。") == (
        Verdict.POSSIBLE,
        ("wording: 中身 → 中見",),
    )
    assert differences("ケンは昨日、歯医者に行った。", "ケンは機能、歯医者に行った。") == (
        Verdict.POSSIBLE,
        ("wording: 昨日 → 機能",),
    )
    assert verdict("ケンは明日来る。", "ケンは明日来る？") is Verdict.DISTINCT
    assert verdict("ケンは来た⁉", "ケンは来た。") is Verdict.DISTINCT
    # Digits and signs Sudachi reads one by one or not at all must be the same, and two
    # names the dictionary lists are two people (伊藤 / 伊東).
    for mine, theirs in [
        ("ケンは1〜2時間歩いた。", "ケンは12時間歩いた。"),
        ("ケンは友達2、3人と来た。", "ケンは友達23人と来た。"),
        ("ケンは$500払った。", "ケンは¥500払った。"),
        ("伊藤さんが来た。", "伊東さんが来た。"),
    ]:
        assert verdict(mine, theirs) is Verdict.DISTINCT, mine


def test_a_rewording_wordnet_relates_is_a_possible_duplicate() -> None:
    found_verdict, found = differences(
        "Master said the line was enormous and the soup excellent.",
        "Master said the queue was huge and the soup superb.",
    )
    assert found_verdict is Verdict.POSSIBLE
    assert found[0].startswith("wording:")


def test_a_symbol_standing_alone_is_the_word_unicode_names_it() -> None:
    """% is PERCENT SIGN, + PLUS SIGN: the same text as the word, and never another
    symbol's word or a symbol inside a name (C++)."""
    assert (
        verdict(
            "Master's new password needs a % sign at the end.",
            "Master's new password needs a percent sign at the end.",
        )
        is Verdict.DUPLICATE
    )
    assert verdict("Ken typed a - sign.", "Ken typed a plus sign.") is Verdict.DISTINCT
    # A currency sign or a pictograph names a thing the writer meant: 🔫 is a water gun.
    for symbol, word in (("🔫", "pistol"), ("¥", "yen"), ("💍", "ring")):
        assert verdict(
            f"Ken bought a {symbol} at the summer fair.", f"Ken bought a {word} at the summer fair."
        ) is (Verdict.DISTINCT)
    assert verdict("Master writes C++ at work.", "Master writes C plus at work.") is (
        Verdict.DISTINCT
    )


def test_a_japanese_word_whose_first_sense_is_a_rarer_sense_of_the_other_is_a_rewording() -> None:
    """直し is first "correction", then "repair", 修理's first; すでに is "already", もう's
    second sense: flagged, never refused, and a word no sense of which is the other's
    stays another fact."""
    assert differences(
        "マスターが古いギターを修理に出した。", "マスターが古いギターを直しに出した。"
    ) == (
        Verdict.POSSIBLE,
        ("wording: 修理 → 直し",),
    )
    assert verdict(
        "マスターはもうレポートを提出した。", "マスターはすでにレポートを提出した。"
    ) is (Verdict.POSSIBLE)
    assert verdict("マスターは車を直した。", "マスターは車を洗った。") is Verdict.DISTINCT
    # 大家 read おおや is a landlord; an expert only read たいか.
    assert verdict("マスターは大家に相談した。", "マスターは専門家に相談した。") is Verdict.DISTINCT


@pytest.mark.parametrize(
    ("existing", "new"),
    [
        ("The box was moved by Ken.", "The box was touched by Ken."),
        ("Ken was blamed for the accident.", "Ken was blessed for the accident."),
        ("Our team was defeated yesterday.", "Our team was frustrated yesterday."),
        ("Emi was discharged from the hospital.", "Emi was fired from the hospital."),
        ("Ken was excited about the trip.", "Ken was upset about the trip."),
        ("The exam was dreaded.", "The exam was terrible."),  # dread: its subject feels
        ("Ken was wanted by the police.", "Ken was cherished by the police."),
        # One English gloss in common proves nothing: "letter", "picture".
        ("手紙を書いた。", "文字を書いた。"),
        ("写真を見た。", "絵を見た。"),
    ],
)
def test_a_passive_of_an_event_is_no_state(existing: str, new: str) -> None:
    """Only the participles of WordNet's verbs of emotion and of the body read as the
    adjective they name; another passive tells an event, whose participle's adjective
    senses (moved: touched) are not its own. Nor do two Japanese words that share one
    English gloss mean the same."""
    assert verdict(existing, new) is not Verdict.DUPLICATE
    assert verdict(new, existing) is not Verdict.DUPLICATE


@pytest.mark.parametrize(
    ("existing", "new"),
    [
        ("I'm glad Master chose the smaller flat.", "I'm glad Master picked the smaller flat."),
        ("My car is red.", "My car is blue."),  # one adjective cluster: no synonyms
        ("Ken lent Tom a book.", "Ken gave Tom a book."),  # a broader verb
        ("I like Emi.", "I love Emi."),
    ],
)
def test_a_step_in_wordnet_is_never_refused(existing: str, new: str) -> None:
    """One step in WordNet joins synonyms and other facts alike (chose / picked, red /
    blue, lent / gave): at most a possible duplicate, for consolidation to propose."""
    assert verdict(existing, new) is Verdict.POSSIBLE


def test_a_broader_noun_leaves_out_detail_and_is_never_refused() -> None:
    assert verdict("Master ate an apple.", "Master ate a fruit.") is not Verdict.DUPLICATE
    assert verdict("Master adopted a dog.", "Master adopted a puppy.") is not Verdict.DUPLICATE


def test_two_real_words_are_never_taken_for_a_misspelling() -> None:
    assert verdict("Master moved to a new county.", "Master moved to a new country.") is (
        Verdict.DISTINCT
    )
    assert verdict("Master bought a leek.", "Master bought a leak.") is Verdict.DISTINCT


def test_a_name_is_never_taken_for_a_misspelt_day_or_month() -> None:
    """Names are not respelled: Juni is no June, Frida no Friday, Mai no May."""
    for mine, theirs in [
        ("Master met Juni at the station.", "Master met June at the station."),
        ("Master went hiking with Frida.", "Master went hiking on Friday."),
        ("Master met Mai at the station.", "Master met May at the station."),
    ]:
        assert verdict(mine, theirs) is not Verdict.DUPLICATE, mine
        assert verdict(theirs, mine) is not Verdict.DUPLICATE, theirs


def test_a_rare_word_is_no_misspelling_of_a_more_common_one() -> None:
    """Words WordNet never filed, which people write often enough to be words of their
    own: neither is read as the common word one letter away."""
    for mine, theirs in [
        ("I ate mochi with Aya at the festival.", "I ate mocha with Aya at the festival."),
        ("Ken texted me about the meeting.", "Ken tested me about the meeting."),
    ]:
        assert verdict(mine, theirs) is Verdict.DISTINCT, mine
    # A misspelling is still read as the far more common word it misses.
    assert verdict("Master's frist day went well.", "Master's first day went well.") is (
        Verdict.DUPLICATE
    )


def test_a_noun_means_what_its_two_most_frequent_senses_mean() -> None:
    """friend's third sense is acquaintance: a rare sense makes no synonym."""
    assert verdict("My friend Ken helped me move.", "My acquaintance Ken helped me move.") is (
        Verdict.POSSIBLE
    )
    assert verdict("Master dozed on the sofa.", "Master dozed on the couch.") is (Verdict.DUPLICATE)


def test_an_adjective_means_what_its_three_most_frequent_senses_mean() -> None:
    """disgusted is sick's fourth sense, naughty blue's fifth: no synonyms."""
    for mine, theirs in [
        ("The dog was sick after the walk.", "The dog was disgusted after the walk."),
        ("Aya wore a blue dress.", "Aya wore a naughty dress."),
    ]:
        assert verdict(mine, theirs) is not Verdict.DUPLICATE, theirs
    assert verdict("Master bought a used bike.", "Master bought a secondhand bike.") is (
        Verdict.DUPLICATE
    )


def test_one_thing_for_another_is_distinct() -> None:
    assert differences("Master bought tomatoes.", "Master bought strawberries.")[0] is (
        Verdict.DISTINCT
    )


def test_below_the_threshold_nothing_is_a_duplicate() -> None:
    assert not compare("same text", "same text", similarity=0.5, threshold=0.78).duplicate


def test_consolidation_proposes_what_only_leaves_out_and_never_a_distinct_pair() -> None:
    assert mergeable("Master bought a bike and a helmet.", "Master bought a bike.").verdict is (
        Verdict.POSSIBLE
    )
    assert mergeable("Master bought a bike.", "Master bought a bike and a helmet.").verdict is (
        Verdict.POSSIBLE
    )
    for first, second in [
        ("Blue Envelope #14 arrived.", "Blue Envelope #15 arrived."),
        ("I liked the album.", "I didn't like the album."),
        ("夏に北海道でキャンプをする。", "夏に北海道でキャンプをする予定。"),  # a plan, a deed
        ("Master called Anna before the party.", "Master called Anna after the party."),
    ]:
        assert mergeable(first, second).verdict is Verdict.DISTINCT
        assert mergeable(second, first).verdict is Verdict.DISTINCT


def test_what_differs_is_shown_as_the_user_wrote_it() -> None:
    """Weekdays by name, words as written (not lemmas, not an implied "I")."""
    _, found = differences("We met on Sunday at the cafe.", "We met on Saturday at the cafe.")
    assert found == ("time: Sunday → Saturday",)
    _, found = differences(
        "Master registered for the marathon yesterday morning.",
        "Master registered for the marathon this morning.",
    )
    assert found == ("time: yesterday → today",)  # the same part of two days
    _, found = differences("Ken came the day before yesterday.", "Ken came 3 days ago.")
    assert found == ("time: 2 days ago → 3 days ago",)
    # After a determiner "last night" is one night of several; "last" stays a word.
    _, found = differences("Ken took the last evening train.", "Ken took the evening train.")
    assert found == ("leaves out: last",)
    _, found = differences(
        "Exhausted, I told Master about the office.", "Exhausted, I told Master about the garden."
    )
    assert found == ("words: office → garden",)


def test_a_negated_participle_is_a_restatement() -> None:
    """ "was closed" reads as the verb "close", an antonym of "open" as written."""
    found = differences(
        "The pharmacy was closed when Master got there.",
        "The pharmacy wasn't open when Master got there.",
    )
    assert found == (Verdict.DUPLICATE, ())


def test_a_converse_by_entailment_is_a_possible_duplicate_never_a_refusal() -> None:
    """beat entails win, whose antonym is lose (WordNet): a converse when the parties
    trade places, but such pointers prove none (push entails move, whose antonym is
    stand still), so the pair is flagged, not refused."""
    found = differences(
        "Master beat Ken at tennis on Saturday.", "Ken lost to Master at tennis on Saturday."
    )
    assert found == (Verdict.POSSIBLE, ("wording: beat → lost (the other side)",))


@pytest.mark.parametrize(
    ("existing", "new"),
    [
        ("Ms. Kimura teaches Master calligraphy.", "Master learns calligraphy from Ms. Kimura."),
        ("Master taught Imogen the bass line.", "Imogen learned the bass line from Master."),
        ("Ken taught chess to Master.", "Master learned chess from Ken."),
        ("マスターはケンに将棋を教えた。", "ケンはマスターに将棋を教わった。"),
        ("佐伯先生はマスターに書道を教えている。", "マスターは佐伯先生に書道を習っている。"),
    ],
)
def test_a_converse_by_cause_told_with_its_other_party_is_a_restatement(
    existing: str, new: str
) -> None:
    """teach causes learn (WordNet's cause pointer): with the parties traded as the verbs
    have them, the learner's teacher named by from or に, one event from its other side."""
    assert verdict(existing, new) is Verdict.DUPLICATE
    assert verdict(new, existing) is Verdict.DUPLICATE


@pytest.mark.parametrize(
    ("existing", "new"),
    [
        ("Master gave Ken a book.", "Ken received a book from Master."),
        ("Master will give Ken the car.", "Ken will receive the car from Master."),
        ("マスターがケンに影響を与えた。", "ケンがマスターから影響を受けた。"),
        ("マスターがケンに本を与えた。", "ケンがマスターから本を受け取った。"),
        # くれる and もらう oppose only as give and take, in take's eighth sense: the
        # converse is give's definition, "cause to have".
        ("友達がケンに本をくれた。", "ケンは友達から本をもらった。"),
    ],
)
def test_a_possession_defined_as_caused_is_a_converse_by_cause(existing: str, new: str) -> None:
    """give is defined "cause to have" (WordNet), and receive's first sense holds "have":
    a transfer told from its receiver's side, the giver named as the source, is the same
    memory (与える / 受ける through their English glosses)."""
    assert both_ways(existing, new) == (Verdict.DUPLICATE, Verdict.DUPLICATE)


@pytest.mark.parametrize(
    ("existing", "new"),
    [
        ("Master gave Ken the keys.", "Ken took the keys from Master."),
        ("Master gave Ken a photo.", "Ken took a photo with Master."),
        ("Master gave his seat to Ken.", "Ken took Master's seat."),
        ("マスターがケンにボールを与えた。", "ケンがマスターからボールを取った。"),
        ("マスターがケンにワインを贈った。", "ケンがマスターのワインを飲んだ。"),
    ],
)
def test_antonyms_in_a_rare_sense_are_no_converse(existing: str, new: str) -> None:
    """give and take are antonyms only in take's eighth sense ("take into one's
    possession"): one who took a thing from Master may have seized it; a converse's two
    verbs are antonyms in senses each is mostly used in (sell / buy, lend / borrow)."""
    for first, second in ((existing, new), (new, existing)):
        answer = differences(first, second)
        assert answer[0] is Verdict.DISTINCT, answer
        assert any(line.startswith("roles:") for line in answer[1]), answer


@pytest.mark.parametrize(
    ("existing", "new", "found"),
    [
        # The parties not traded: two transfers, opposite ways.
        ("Master gave Ken a book.", "Master received a book from Ken.", "words: gave → received"),
        # Another giver; the transfer denied on one side; one told as to come.
        (
            "Master gave Ken a book.",
            "Ken received a book from Aya.",
            "person: Master",
        ),
        ("Master didn't give Ken a book.", "Ken received a book from Master.", "negation: give"),
        ("Master gave Ken a book.", "Ken will receive a book from Master.", "qualifier: — → will"),
        # A causative definition outside possession names an effect, not the other
        # party's telling (send: "cause to go somewhere").
        ("Master sent Ken away.", "Ken went away from Master.", "words: sent → went"),
    ],
)
def test_a_transfer_defined_as_caused_needs_its_parties_traded(
    existing: str, new: str, found: str
) -> None:
    assert both_ways(existing, new) == (Verdict.DISTINCT, Verdict.DISTINCT)
    assert differences(existing, new)[1][0].startswith(found)


@pytest.mark.parametrize(
    ("existing", "new", "verbs"),
    [
        ("マスターは財布を落とさなかった。", "マスターは財布を拾った。", "落とさ → 拾っ"),
        ("売上は増えなかった。", "売上は減った。", "増え → 減っ"),
        # Told as states, a change, a hand-over or the body's deed may still be neither.
        ("売上は増えていない。", "売上は減っている。", "増え → 減っ"),
        ("ケンに本を貸していない。", "ケンから本を借りている。", "貸し → 借り"),
        ("マスターは泣いていない。", "マスターは笑っている。", "泣い → 笑っ"),
        ("マスターはケンに本を貸さなかった。", "マスターはケンから本を借りた。", "貸さ → 借り"),
        ("Master didn't give a present.", "Master took a present.", "give → took"),
        (
            "Sales didn't increase this month.",
            "Sales decreased this month.",
            "increase → decreased",
        ),
        ("Master didn't find his wallet.", "Master lost his wallet.", "find → lost"),
        ("Master didn't laugh at the joke.", "Master cried at the joke.", "laugh → cried"),
        # Opposed first as deeds of contact (a shop's business only after), done to a thing.
        ("Master didn't open the window.", "Master closed the window.", "open → closed"),
        ("マスターは窓を開けなかった。", "マスターは窓を閉めた。", "開け → 閉め"),
        # A phrasal verb's antonyms are its own verb's (woke up: wake).
        ("Master didn't sleep.", "Master woke up.", "sleep → woke"),
    ],
)
def test_a_deed_denied_is_not_its_opposite_done(existing: str, new: str, verbs: str) -> None:
    """Verbs WordNet opposes only as deeds (body, change, contact, motion, possession) are
    contraries: neither may be done."""
    assert differences(existing, new) == (
        Verdict.DISTINCT,
        (f"negation: {verbs} (contraries: may be neither)",),
    )


def test_outcomes_and_states_of_contact_or_motion_stay_complementary() -> None:
    """Not passing is failing; told as states with ている, a deed of contact or motion
    leaves one state or the other; a deed undone is told as undone."""
    assert verdict("Master didn't pass the exam.", "Master failed the exam.") is (Verdict.DUPLICATE)
    assert verdict("エアコンは動いていない。", "エアコンは止まっている。") is Verdict.DUPLICATE
    assert verdict("スーパーは閉まっていた。", "スーパーは開いていなかった。") is Verdict.DUPLICATE
    # A thing's own opening is its state, one or the other: a day the bank was shut.
    assert verdict("The bank didn't open for the holiday.", "The bank closed for the holiday.") is (
        Verdict.DUPLICATE
    )
    # accept opposes decline first as possession, then as an answer (communication).
    assert verdict("Master didn't accept the offer.", "Master declined the offer.") is (
        Verdict.DUPLICATE
    )
    assert differences("Master didn't lock the door.", "Master unlocked the door.") == (
        Verdict.DISTINCT,
        ("negation: lock → unlocked (undone)",),
    )


@pytest.mark.parametrize(
    ("existing", "new"),
    [
        # Told in two tenses: teaching now, learned then.
        ("Ken teaches Master chess.", "Master learned chess from Ken."),
        ("ケンはマスターに英語を教えている。", "マスターはケンに英語を習った。"),
        # The causer told where the event lands, not as its source.
        ("Ken reminded Master of his promise.", "Master remembered his promise to Ken."),
        ("Ken triggered the accident.", "The accident happened to Ken."),
        # The one it was done to no party given to: を, not に.
        ("保険金がマスターに下りた。", "マスターは保険金を下ろした。"),
        # The caused sense is not the other verb's first: kill causes "go" as in die.
        ("Aya killed the proposal.", "The proposal went to Aya."),
        # Other parties traded as well.
        (
            "Ken taught Master chess for Aya with Emi.",
            "Master learned chess from Ken for Emi with Aya.",
        ),
    ],
)
def test_a_converse_by_cause_is_vouched_for_only_as_the_verbs_have_it(
    existing: str, new: str
) -> None:
    """Flagged as told from the other side, never refused."""
    for first, second in ((existing, new), (new, existing)):
        found = differences(first, second)
        assert found[0] is Verdict.POSSIBLE, found
        assert found[1][-1].endswith("(the other side)"), found


def test_a_converse_by_cause_needs_its_parties_traded_through_an_oblique() -> None:
    """The causer not named as the source (reminded Ken / Ken remembered Master) proves
    no converse: flagged. Without the trade, the verbs are two facts."""
    assert verdict("Master reminded Ken.", "Ken remembered Master.") is Verdict.POSSIBLE
    assert verdict("Master taught Ken chess.", "Master learned chess from Ken.") is (
        Verdict.DISTINCT
    )
    assert verdict("マスターはケンに将棋を教えた。", "マスターはケンに将棋を教わった。") is (
        Verdict.DISTINCT
    )


@pytest.mark.parametrize(
    ("existing", "new"),
    [
        ("Ken bought Emi a scarf for her birthday.", "Emi gave Ken a scarf for his birthday."),
        ("Ken pushed Emi.", "Emi stayed with Ken."),
        ("Emi fed Ken dinner.", "Ken ate dinner with Emi."),
        ("Ken beat Emi.", "Emi missed Ken."),
        # Told from the other side, any other opposite still differs.
        ("Master beat Ken at tennis on a hot day.", "Ken lost to Master at tennis on a cold day."),
        (
            "Ken sold his bike to Master on a hot day.",
            "Master bought a bike from Ken on a cold day.",
        ),
    ],
)
def test_pointers_that_suggest_a_converse_never_make_a_refusal(existing: str, new: str) -> None:
    assert verdict(existing, new) is Verdict.DISTINCT
    assert verdict(new, existing) is Verdict.DISTINCT


@pytest.mark.parametrize(
    ("existing", "new"),
    [
        ("Master beat Ken at tennis on Saturday.", "Master lost to Ken at tennis on Saturday."),
        ("Ken beat Master at tennis on Saturday.", "Ken lost to Master at tennis on Saturday."),
        (
            "The pharmacy was closed when Master got there.",
            "The pharmacy was open when Master got there.",
        ),
        ("Master wants to pick a fountain pen for Aya.", "Master picked a fountain pen for Aya."),
        (
            "Master suspects his neighbour is stealing his paper.",
            "Master's neighbour is stealing his paper.",
        ),
        ("マスターの兄が来た。", "マスターの弟が来た。"),  # two compounds of one head
    ],
)
def test_the_other_side_or_a_framed_clause_is_another_fact(existing: str, new: str) -> None:
    assert verdict(existing, new) is Verdict.DISTINCT
    assert verdict(new, existing) is Verdict.DISTINCT


def test_a_verb_that_tells_its_complement_as_done_is_no_qualifier() -> None:
    """helped him pick, kept dropping: the complement happened (a bare infinitive, a
    gerund); only the verb's own word is missing, so the pair is a possible duplicate."""
    found = differences(
        "The log ingester kept dropping lines whenever a timestamp had no timezone.",
        "Whenever a timestamp lacked a timezone, the log ingester dropped the line.",
    )
    assert found == (Verdict.POSSIBLE, ("leaves out: kept",))


def test_an_acronym_only_its_initials_tie_is_a_possible_duplicate() -> None:
    """WordNet knows HR as "hour": initials alone can't prove a restatement (LA / Los
    Altos), so the pair is saved and flagged, naming the reading."""
    found = differences(
        "Master met with HR about parental leave.",
        "Master met with human resources about parental leave.",
    )
    assert found == (Verdict.POSSIBLE, ("wording: HR → human resources",))
    found = differences("Emi works in PR.", "Emi works in product research.")
    assert found == (Verdict.POSSIBLE, ("wording: PR → product research",))


def test_an_acronym_is_the_words_wordnet_defines_it_as() -> None:
    """WordNet defines ASAP as "as soon as possible": read so, function words and all;
    another run of words with the same initials is no reading of it."""
    spelled = "Master asked his team to send the slides as soon as possible."
    short = "Master asked his team to send the slides ASAP."
    assert both_ways(short, spelled) == (Verdict.DUPLICATE, Verdict.DUPLICATE)
    late = "Master asked his team to send the slides as late as possible."
    assert both_ways(short, late) == (Verdict.DISTINCT, Verdict.DISTINCT)


@pytest.mark.parametrize(
    ("first", "second"),
    [
        (
            "Master decided to move to Bristol next spring.",
            "Master made the decision to move to Bristol next spring.",
        ),
        (
            "Master's decision to quit smoking was made on New Year's Day.",
            "Master decided to quit smoking on New Year's Day.",
        ),
        (
            "Master's decision to quit the tennis club surprised his friends.",
            "Master decided to quit the tennis club, which surprised his friends.",
        ),
        ("Master decided to sell his old car.", "Master reached the decision to sell his old car."),
    ],
)
def test_a_framing_verb_told_as_its_noun_is_one_frame(first: str, second: str) -> None:
    """decide / decision: WordNet's derivationally related noun, with the support verb
    that carries it (made the decision), is the verb's frame told another way."""
    assert both_ways(first, second) == (Verdict.DUPLICATE, Verdict.DUPLICATE)


@pytest.mark.parametrize(
    ("first", "second"),
    [
        # The support verb's denial is the frame's.
        ("Master decided to move to Bristol.", "Master made no decision to move to Bristol."),
        # Another owner of the noun is another person's decision.
        ("Master decided to move to Bristol.", "Ken's decision to move to Bristol was made."),
        # A verb of its own around the noun is a word as any other.
        ("Master decided to move to Bristol.", "Master regretted his decision to move to Bristol."),
        # The noun frames another deed: two frames swapped.
        (
            "Master wanted to stay but decided to leave.",
            "Master wanted to leave but made the decision to stay.",
        ),
        # Another's noun, and "had", which holds as often as it makes.
        (
            "Master agreed to borrow Ken's ladder.",
            "Master had Ken's agreement to borrow the ladder.",
        ),
        ("Ken tried to defend himself.", "Ken had a trial to defend himself."),
        # "took the proposal" accepts one; "makes" is another tense; "I made" the diarist's.
        ("Master proposed to sell the house.", "Master took the proposal to sell the house."),
        ("Master decided to quit smoking.", "Master makes the decision to quit smoking."),
        ("Master decided to quit the club.", "I made Master's decision to quit the club."),
        # A support verb or a framing verb told twice: which one carries the noun, or
        # whose tense it is, the readings do not say.
        (
            "Master decided to quit the club and bought a cake.",
            "Master made the decision to quit the club and made a cake.",
        ),
        (
            "Master decided to quit the club, and Ken decides to stay.",
            "Master makes the decision to quit the club, and Ken makes the decision to stay.",
        ),
        # No frame: the deed done, without one.
        (
            "Master intended to hurt Ken's feelings.",
            "Master hurt Ken's feelings without intention.",
        ),
        # A person, not the act (planner, lover).
        (
            "Master planned to renovate the kitchen.",
            "Master made a planner to renovate the kitchen.",
        ),
        # A doer only a pronoun names is none the guard can compare.
        ("She decided to quit the choir.", "He made the decision to quit the choir."),
    ],
)
def test_a_frame_told_as_a_noun_keeps_what_else_is_said(first: str, second: str) -> None:
    assert verdict(first, second) is Verdict.DISTINCT


def test_a_japanese_gloss_wordnet_lacks_is_a_step_from_its_head() -> None:
    """寺院 "Buddhist temple" is a kind of 寺 "temple": a rewording, not a proof."""
    found = differences("ご主人様は古いお寺を訪ねた。", "ご主人様は古い寺院を訪れた。")
    assert found[0] is Verdict.POSSIBLE


@pytest.mark.parametrize(
    ("existing", "new"),
    [
        ("Master had a wisdom tooth pulled today.", "Master had a wisdom tooth puled today."),
        ("The memory leak was in the file handle.", "The memory leek was in the file handel."),
        ("マスターは病院に行ったあと薬局に寄った。", "マスターは病院に言ったあと薬局に寄った。"),
        ("新しいプロジェクトのリーダーになった。", "新しいプロジュクトのリーダーになった。"),
    ],
)
def test_a_real_word_one_letter_off_a_far_commoner_one_is_a_possible_typo(
    existing: str, new: str
) -> None:
    """Both are words, so the guard cannot vouch for the reading: saved and flagged."""
    assert verdict(existing, new) is Verdict.POSSIBLE


@pytest.mark.parametrize(
    ("existing", "new"),
    [
        ("Master fed the cat this morning.", "Master fed the car this morning."),  # as common
        ("Master bought a lamp.", "Master bought a lamb."),
        ("Master called his brother.", "Master called his bother."),  # four times: no typo
    ],
)
def test_two_words_about_as_common_are_two_facts(existing: str, new: str) -> None:
    assert verdict(existing, new) is Verdict.DISTINCT


@pytest.mark.parametrize(
    ("existing", "new", "what"),
    [
        (
            "マスターは貯金用の口座から生活費の口座へ五万円移した。",
            "マスターは生活費の口座から貯金用の口座へ五万円移した。",
            "(from → to)",
        ),
        (
            "駅前のパン屋は商店街のパン屋より値段が高い。",
            "商店街のパン屋は駅前のパン屋より値段が高い。",
            "than",
        ),
        (
            "The ramen shop on Fifth Street is cheaper than the one near Master's office.",
            "The ramen shop near Master's office is cheaper than the one on Fifth Street.",
            "than",
        ),
        (
            "Master's dentist appointment is on the 3rd and his haircut is on the 14th.",
            "Master's dentist appointment is on the 14th and his haircut is on the 3rd.",
            "number: bound to another word",
        ),
    ],
)
def test_things_told_apart_by_what_owns_them_keep_their_slots(
    existing: str, new: str, what: str
) -> None:
    """One word in both slots (the account, the bakery, a date on a copula), told apart
    only by its owner or modifier: the owner carries its thing's slot (found blind)."""
    for first, second in ((existing, new), (new, existing)):
        found = differences(first, second)
        assert found[0] is Verdict.DISTINCT
        assert what in " ".join(found[1])


@pytest.mark.parametrize(
    ("first", "second"),
    [
        # A bare amount a verb takes is its subject's; "and" after a scale word ends it.
        ("Ken paid 100 and Aya paid 1000.", "Ken paid 1000 and Aya paid 100."),
        (
            "Ken's bill was two hundred and Aya's was fifty.",
            "Ken's bill was fifty and Aya's was two hundred.",
        ),
        # A value is bound to its thing with the owner and the words that describe it, and
        # to the bare thing: an owner written on one of the two only (found in review).
        ("マスターの息子は10歳で、娘は7歳だ。", "マスターの娘は10歳で、息子は7歳だ。"),
        (
            "The client meeting is at 10 and lunch is at 12.",
            "The client lunch is at 10 and the meeting is at 12.",
        ),
        (
            "Master's flight is at nine and Ken's flight is at eleven.",
            "Master's flight is at eleven and Ken's flight is at nine.",
        ),
        (
            "ケンのコートは3万円で、アヤのコートは5万円だった。",
            "ケンのコートは5万円で、アヤのコートは3万円だった。",
        ),
        (
            "大きいケーキは500円で、小さいケーキは300円だった。",
            "大きいケーキは300円で、小さいケーキは500円だった。",
        ),
        (
            "The big meeting is at 9 and the small meeting is at 11.",
            "The small meeting is at 9 and the big meeting is at 11.",
        ),
        ("Master's son is 8 and Ken's son is 5.", "Ken's son is 8 and Master's son is 5."),
        (
            "Master paid 3,000 yen for the big cake and 1,500 yen for the small cake.",
            "Master paid 1,500 yen for the big cake and 3,000 yen for the small cake.",
        ),
        (
            "The flight of Master is at 9 and the flight of Ken is at 11.",
            "The flight of Ken is at 9 and the flight of Master is at 11.",
        ),
        ("マスターの車は2千万円だった。", "マスターの車は2千円だった。"),
        ("マスターの貯金は1,200万円になった。", "マスターの貯金は1,200円になった。"),
        (
            "The morning train is faster than the evening train.",
            "The evening train is faster than the morning train.",
        ),
        (
            "Master moved the money from Ken's account to Aya's account.",
            "Master moved the money from Aya's account to Ken's account.",
        ),
        ("マスターは兄の家から妹の家まで歩いた。", "マスターは妹の家から兄の家まで歩いた。"),
        ("ケンの犬はアヤの犬より大きい。", "アヤの犬はケンの犬より大きい。"),
        (
            "Master moved his desk from the small room to the big room.",
            "Master moved his desk from the big room to the small room.",
        ),
        (
            "Ken's dog chased Aya's dog around the park.",
            "Aya's dog chased Ken's dog around the park.",
        ),
        ("ケンの犬がアヤの犬を公園で追いかけた。", "アヤの犬がケンの犬を公園で追いかけた。"),
        (
            "Master's meeting is at 9 and Ken's meeting is at 11.",
            "Master's meeting is at 11 and Ken's meeting is at 9.",
        ),
        (
            "Ken's flight is at 9 and Aya's train is at 11.",
            "Ken's flight is at 11 and Aya's train is at 9.",
        ),
        # A time a verb's phrase gives is its written subject's, as a copula's is.
        (
            "The new office opens at 8 and the old office opens at 10.",
            "The new office opens at 10 and the old office opens at 8.",
        ),
        (
            "The gym closes at 10 and the pool closes at 9.",
            "The pool closes at 10 and the gym closes at 9.",
        ),
        (
            "Master's flight leaves at 9, and the client meeting starts at 11.",
            "Master's flight leaves at 11, and the client meeting starts at 9.",
        ),
        # A place a phrase after the thing names tells two things apart, as an owner does.
        (
            "The flight to Tokyo is at 9 and the flight to Osaka is at 11.",
            "The flight to Osaka is at 9 and the flight to Tokyo is at 11.",
        ),
        (
            "Ken's flight to Tokyo leaves at 9 and Aya's flight to Osaka at 11.",
            "Ken's flight to Osaka leaves at 9 and Aya's flight to Tokyo at 11.",
        ),
        (
            "The flight on Monday is at 9 and the flight on Tuesday is at 11.",
            "The flight on Tuesday is at 9 and the flight on Monday is at 11.",
        ),
        ("Lunch with the client is at noon.", "Lunch with the client is at 1 pm."),
        # A part of the day told apart from a clock time stays (found in review).
        (
            "Lunch with Ken at noon, then a walk in the evening.",
            "Lunch with Ken at noon, then a walk in the morning.",
        ),
        (
            "Lunch at 1 pm, then a walk in the evening.",
            "Lunch at 1 pm, then a walk in the morning.",
        ),
        # Two verbs of one subject keep their own times (found in review).
        ("The gym opens at 6 and closes at 10.", "The gym opens at 10 and closes at 6."),
        (
            "Master wakes up at 6 and leaves home at 8.",
            "Master wakes up at 8 and leaves home at 6.",
        ),
        (
            "Master's train leaves at 7:40 and Ken's train leaves at 8:10.",
            "Master's train leaves at 8:10 and Ken's train leaves at 7:40.",
        ),
        # An amount a verb takes is its subject's; a copula's adjective its subject's; a
        # time said of a verb with an object is the object's too; things paired in two
        # parts of a sentence are paired otherwise (guard_blind11).
        (
            "The dog food costs $60 a bag and the cat food costs $25 a bag.",
            "The dog food costs $25 a bag and the cat food costs $60 a bag.",
        ),
        (
            "Master's car is black and his wife's car is silver.",
            "Master's car is silver and his wife's car is black.",
        ),
        (
            "Master takes the iron supplement in the morning and the vitamin D at night.",
            "Master takes the vitamin D in the morning and the iron supplement at night.",
        ),
        (
            "Master puts milk in his coffee and sugar in his tea.",
            "Master puts sugar in his coffee and milk in his tea.",
        ),
        (
            "マスターはコーヒーにミルク、紅茶に砂糖を入れる。",
            "マスターはコーヒーに砂糖、紅茶にミルクを入れる。",
        ),
        ("ご主人様はダイエットをしていた。", "ご主人様はダイエットをしている。"),
        # Verbs, adjectives, numbers and dates pair in a part as nouns do (guard_blind12).
        (
            "Master meets Suzuki at 2 pm and Ito at 4 pm tomorrow.",
            "Master meets Suzuki at 4 pm and Ito at 2 pm tomorrow.",
        ),
        (
            "Master ordered the curry and his friend Daiki had the pasta.",
            "Master had the pasta and his friend Daiki ordered the curry.",
        ),
        (
            "白い車はご主人様ので、黒い車はお父様のだ。",
            "黒い車はご主人様ので、白い車はお父様のだ。",
        ),
        ("今年の夏は去年の夏より暑い。", "去年の夏は今年の夏より暑い。"),
        (
            "Master flew to Tokyo on Monday and to Osaka on Friday.",
            "Master flew to Osaka on Monday and to Tokyo on Friday.",
        ),
        ("マスターは猫が好きで、蜘蛛が嫌いだ。", "マスターは蜘蛛が好きで、猫が嫌いだ。"),
        # Describing words traded between two nouns.
        ("Master bought a red bag and a blue hat.", "Master bought a blue bag and a red hat."),
        ("マスターは赤いかばんと青い帽子を買った。", "マスターは青いかばんと赤い帽子を買った。"),
        ("マスターはケンと映画を見た。", "マスターは映画とケンを見た。"),
        (
            "Master bought eggs to make pancakes and milk for his coffee.",
            "Master bought milk to make pancakes and eggs for his coffee.",
        ),
        (
            "マスターは駅でエミと、カフェでケンと会った。",
            "マスターは駅でケンと、カフェでエミと会った。",
        ),
        (
            "健太さんがワインを、恵美さんがチーズを持ってきた。",
            "健太さんがチーズを、恵美さんがワインを持ってきた。",
        ),
        (
            "ドッグフードは一袋6000円、キャットフードは一袋2500円だ。",
            "ドッグフードは一袋2500円、キャットフードは一袋6000円だ。",
        ),
        # より after a date is the side measured against, as after a noun.
        ("マスターは夏より冬のほうが好きだ。", "マスターは冬より夏のほうが好きだ。"),
        # A date with に or は is the time of the noun its clause goes on to name.
        (
            "マスターは月曜に歯医者、水曜に美容院の予約を入れた。",
            "マスターは月曜に美容院、水曜に歯医者の予約を入れた。",
        ),
        # What tells two clauses' subjects apart keeps its clause's other party.
        (
            "The blue bike in the garage belongs to Master; the red one is his son's.",
            "The red bike in the garage belongs to Master; the blue one is his son's.",
        ),
        (
            "Room 204 is Master's office and room 402 is the server room.",
            "Room 402 is Master's office and room 204 is the server room.",
        ),
        (
            "The big room is the office and the small room is the bedroom.",
            "The small room is the office and the big room is the bedroom.",
        ),
    ],
)
def test_owners_swapped_between_slots_are_two_facts(first: str, second: str) -> None:
    assert both_ways(first, second) == (Verdict.DISTINCT, Verdict.DISTINCT)


@pytest.mark.parametrize(
    ("first", "second"),
    [
        # One owner of its thing in two slots is where it was (found in review).
        (
            "Master copied the files from the company's old server to the company's new server.",
            "Master copied the files from the company's old server to the company's new server.",
        ),
        (
            "マスターは東京の古い家から東京の新しい家へ引っ越した。",
            "マスターは東京の古い家から東京の新しい家へ引っ越した。",
        ),
        (
            "Master woke up earlier than usual this morning.",
            "This morning Master woke up earlier than usual.",
        ),
        (
            "Master moved his desk from the small room to the big room.",
            "Master moved his desk to the big room from the small room.",
        ),
        (
            "Ken's brother sold a bike to Aya's brother.",
            "Aya's brother bought a bike from Ken's brother.",
        ),
        ("マスターは今月の電気代を1万2千円払った。", "マスターは今月の電気代を12,000円払った。"),
        ("Master's son is 8 and Ken's son is 5.", "Master's son is eight and Ken's son is five."),
        # An owner told once, then by a pronoun: the adjectives tell the two apart.
        (
            "Master's new phone replaced his old phone.",
            "Master's old phone was replaced by his new phone.",
        ),
        (
            "マスターの新しい犬が古い犬を追いかけた。",
            "マスターの古い犬が新しい犬に追いかけられた。",
        ),
        # One slot of two predicates is no move (転んだ / 転倒した: 犬 is に in both).
        ("ご主人様は犬の散歩中に転んだ。", "ご主人様は犬の散歩中に転倒した。"),
        # Clauses in another order keep their times and their describers.
        (
            "The new office opens at 8 and the old office opens at 10.",
            "The old office opens at 10 and the new office opens at 8.",
        ),
        (
            "The housewarming party starts at 7 p.m. on Saturday.",
            "The housewarming party starts at 19:00 on Saturday.",
        ),
        (
            "Master's train leaves at 6:45 pm on Friday.",
            "Master's train leaves at 18:45 on Friday.",
        ),
        ("The bus picked Master up at 8.", "Master was picked up by the bus at 8."),
        (
            "The big room is the office and the small room is the bedroom.",
            "The small room is the bedroom and the big room is the office.",
        ),
        (
            "The blue bike belongs to Master and the red bike belongs to his son.",
            "The red bike belongs to his son and the blue bike belongs to Master.",
        ),
        ("マスターが沖縄に行ったのは去年の夏だ。", "マスターは去年の夏に沖縄に行った。"),
        ("The train to Kyoto leaves at 8 on Monday.", "On Monday the train to Kyoto leaves at 8."),
        (
            "Master bought milk and eggs at the corner shop.",
            "Master bought eggs and milk at the corner shop.",
        ),
        (
            "Master puts milk in his coffee and sugar in his tea.",
            "Master puts sugar in his tea and milk in his coffee.",
        ),
        (
            "マスターはコーヒーにミルク、紅茶に砂糖を入れる。",
            "マスターは紅茶に砂糖、コーヒーにミルクを入れる。",
        ),
        ("ご主人様はダイエットをしている。", "ご主人様はダイエットしている。"),
        # Parts in another order, or one verb and one subject for every part.
        (
            "マスターはコーヒーにミルクを、紅茶に砂糖を入れた。",
            "マスターは紅茶に砂糖を、コーヒーにミルクを入れた。",
        ),
        (
            "マスターは健太さんにパスタを、恵美さんにサラダを作った。",
            "マスターは恵美さんにサラダを、健太さんにパスタを作った。",
        ),
        (
            "Master planted roses in the front yard and tulips in the back yard.",
            "Master planted tulips in the back yard and roses in the front yard.",
        ),
        (
            "Master bought milk, bread and eggs at the shop.",
            "Master bought eggs, bread and milk at the shop.",
        ),
        ("マスターの車検は令和八年三月二十日までだ。", "マスターの車検は2026年3月20日までだ。"),
        # A list is one part, and so is a phrase before a pause (found in review).
        ("Master met Emi and Ken at the station.", "Master met Ken and Emi at the station."),
        (
            "Master had lunch with Emi and Ken in the park.",
            "Master had lunch with Ken and Emi in the park.",
        ),
        (
            "Master fed the cat and the dog before he left for work.",
            "Master fed the dog and the cat before he left for work.",
        ),
        (
            "Master invited Emi, Ken and Yuki to dinner on Friday.",
            "On Friday Master invited Yuki, Emi and Ken to dinner.",
        ),
        ("マスターは九時に、エミと駅で会った。", "マスターは駅で、エミと九時に会った。"),
        # A list with と is one phrase, whatever its order; a companion is no item.
        ("ご主人様は卵と牛乳と食パンを買ってきた。", "ご主人様は食パンと牛乳と卵を買ってきた。"),
        ("マスターは赤いかばんと青い帽子を買った。", "マスターは青い帽子と赤いかばんを買った。"),
        ("マスターはケンとアヤを招いた。", "マスターはアヤとケンを招いた。"),
        (
            "マスターは妹と、駅前のカフェでケーキを食べた。",
            "駅前のカフェで、マスターは妹とケーキを食べた。",
        ),
        (
            "マスターは庭にミント、トマト、バジルを五月に植えた。",
            "五月に、マスターは庭にトマト、バジル、ミントを植えた。",
        ),
        (
            "エミが来る前に、マスターは台所、風呂場を掃除した。",
            "エミが来る前に、マスターは風呂場、台所を掃除した。",
        ),
        ("Master's flight on Monday is at 9.", "Master's flight is at 9 on Monday."),
        # A pronoun subject is the subject before it; joined verbs share one (review).
        (
            "The store closes at 9 on weekdays and at 6 on Sundays.",
            "On Sundays the store closes at 6, and on weekdays it closes at 9.",
        ),
        ("The gym opens at 6 and it closes at 10.", "The gym opens at 6 and closes at 10."),
        ("The gym opens at 6 and closes at 10.", "The gym closes at 10 and opens at 6."),
        (
            "Master starts work at 9 and he finishes at 6.",
            "Master starts work at 9 and finishes at 6.",
        ),
        (
            "Master starts work at 9 and finishes work at 6.",
            "Master finishes work at 6 and starts work at 9.",
        ),
        ("The party on Saturday starts at 7 p.m.", "The party starts at 7 p.m. on Saturday."),
        # Noon and midnight are times of the clock.
        (
            "Lunch with the client is at noon on Thursday.",
            "Lunch with the client is at 12 pm on Thursday.",
        ),
        ("Master went to bed at midnight.", "Master went to bed at 12 am."),
        ("Master went to bed at midnight last night.", "Master went to bed at 12 am last night."),
        ("MASTER CANNOT EAT GLUTEN.", "MASTER CAN'T EAT GLUTEN."),
        ("Master finished the report before noon.", "Master finished the report before midday."),
    ],
)
def test_restatements_around_owners_comparisons_and_copulas_stay_restatements(
    first: str, second: str
) -> None:
    assert both_ways(first, second) == (Verdict.DUPLICATE, Verdict.DUPLICATE)


@pytest.mark.parametrize(
    ("first", "second"),
    [
        (
            "Master drove 1.5 hours to see his parents.",
            "Master drove 90 minutes to see his parents.",
        ),
        ("Master ran 5 km in 30 minutes.", "Master ran five km in half an hour."),
        ("Master has worked there for a decade.", "Master has worked there for 10 years."),
        ("マスターは昨日、１時間半ほど昼寝をした。", "マスターは昨日、90分ほど昼寝をした。"),
        ("マスターは二時間半かけて部屋を掃除した。", "マスターは2時間30分かけて部屋を掃除した。"),
        ("マスターは半年前に引っ越した。", "マスターは6か月前に引っ越した。"),
        ("Master cleaned for 2 hours and 30 minutes.", "Master cleaned for two and a half hours."),
        ("Master can't eat gluten.", "Master cannot eat gluten."),
        ("Master said he'd already paid the bill.", "Master said he had already paid the bill."),
        # Number words beside hyphens and articles, times, eras and thousands with k.
        (
            "Master's new monitor is a twenty-seven-inch one.",
            "Master's new monitor is a 27-inch one.",
        ),
        (
            "Master has a team meeting at half past two in the afternoon on Wednesday.",
            "Master has a team meeting at 2:30 p.m. on Wednesday.",
        ),
        ("マスターは令和7年4月に今の会社に入社した。", "マスターは2025年4月に今の会社に入社した。"),
        ("Master's rent went up by 5,000 yen.", "Master's rent rose by ¥5k."),
        ("Master said he'd been promoted.", "Master said he had been promoted."),
        ("Master said he'd have paid the rent.", "Master said he would have paid the rent."),
        ("Master ran 5 km in 30 minutes.", "Master ran 5 km in half an hour."),
        ("Master lived in Kyoto for a year and a half.", "Master lived in Kyoto for 18 months."),
    ],
)
def test_values_written_another_way_and_a_contracted_not_are_restatements(
    first: str, second: str
) -> None:
    assert both_ways(first, second) == (Verdict.DUPLICATE, Verdict.DUPLICATE)


@pytest.mark.parametrize(
    ("first", "second"),
    [
        ("Master ran for 30 minutes.", "Master ran for 30 hours."),
        ("Master slept 90 minutes.", "Master slept 2 hours."),
        ("Master goes to the gym three times a week.", "Master goes to the gym for three weeks."),
        (
            "Master swims for 30 minutes and his wife runs for 50 minutes.",
            "Master swims for 50 minutes and his wife runs for 30 minutes.",
        ),
        ("マスターの息子はケーキの10分の1を食べた。", "マスターの息子はケーキを10分食べた。"),
        ("Master said he'd pay the bill.", "Master said he had paid the bill."),
        # Found in review: lengths in two units traded, a length for a place, 'd be.
        (
            "The flight to Tokyo took 90 minutes and the train to Osaka took 3 hours.",
            "The flight to Tokyo took 3 hours and the train to Osaka took 90 minutes.",
        ),
        (
            "The bus ride took 20 minutes and the walk took an hour.",
            "The bus ride took an hour and the walk took 20 minutes.",
        ),
        (
            "Master worked for 3 years at the bank and for 5 years at the school.",
            "Master worked for 5 years at the bank and for 3 years at the school.",
        ),
        ("Master said he'd be promoted.", "Master said he had been promoted."),
        ("Master said he'd have paid the rent.", "Master said he had paid the rent."),
    ],
)
def test_another_length_a_rate_or_lengths_swapped_are_two_facts(first: str, second: str) -> None:
    assert both_ways(first, second) == (Verdict.DISTINCT, Verdict.DISTINCT)


@pytest.mark.parametrize(
    ("first", "second"),
    [
        # A cleft's focus fills its clause's gap: the subject where the clause has none,
        # in English (it was X who) and in Japanese (…のはXで、…のはYだった).
        (
            "It was Ken's sister who booked the hotel, not Ken.",
            "It was Ken who booked the hotel, not his sister.",
        ),
        (
            "ケーキを焼いたのはアヤで、パンを焼いたのはケンだった。",
            "ケーキを焼いたのはケンで、パンを焼いたのはアヤだった。",
        ),
        # A verb's stem the analyser cut from the noun it forms (飲み + 会) is that noun.
        ("ケンは部長に飲み会に誘われた。", "ケンが部長を飲み会に誘った。"),
        # Two who trade verbs in one role, a cleft's or a plain sentence's.
        ("提案したのはマスターで、反対したのは課長だった。", "課長が提案し、マスターが反対した。"),
        # A pseudo-cleft's focus fills its relative clause's gap the same way, and its
        # clause keeps its tense.
        ("Aya called Ken.", "Ken was the one who called Aya."),
        ("Ken praised Aya.", "Ken was the one Aya praised."),
        ("Ken called Aya.", "Ken is the one who calls Aya."),
        # A topic owns its が noun's attribute only where the noun has no owner of its own.
        ("ケンは犬の声が聞こえた。", "犬はケンの声が聞こえた。"),
        ("部長は課長の声が大きいと言った。", "課長は部長の声が大きいと言った。"),
        ("アヤはケンが背が高いと言った。", "ケンはアヤの背が高いと言った。"),
    ],
)
def test_clefts_and_compounds_keep_who_did_it(first: str, second: str) -> None:
    assert both_ways(first, second) == (Verdict.DISTINCT, Verdict.DISTINCT)


def test_a_party_told_by_a_pronoun_is_no_word_to_leave_out() -> None:
    # Him, her, them as an object or a preposition's, standing for nobody named before
    # it: a person the other text lacks (a person dropped), never a restatement.
    for with_party, without in (
        ("Aya went to the cinema with him.", "Aya went to the cinema."),
        ("Ken made a cake for her.", "Ken made a cake."),
        ("Master went to the cinema with her.", "Master went to the cinema."),
        ("Ken hugged her.", "Ken hugged him."),
        # A place, a day or the subject's own name stands for no pronoun.
        ("In Tokyo, Ken hugged her.", "In Tokyo, Ken hugged him."),
        ("Dr. Sato examined her.", "Dr. Sato examined him."),
        ("アヤは彼と映画に行った。", "アヤは映画に行った。"),
        ("マスターは彼らに花を買った。", "マスターは花を買った。"),
        ("ケンは彼女を抱きしめた。", "ケンは彼を抱きしめた。"),
    ):
        assert Verdict.DUPLICATE not in both_ways(with_party, without)
    # Standing for the Master the text names, it is his, as before.
    assert both_ways("Master's boss praised him.", "Master was praised by his boss.") == (
        Verdict.DUPLICATE,
        Verdict.DUPLICATE,
    )


def test_a_pseudo_cleft_in_doubt_is_read_as_written() -> None:
    # A gap after a preposition is no object (asked about him); "the one that got away"
    # is as often a lost chance as a deed.
    for first, second in (
        ("Aya asked Ken.", "Ken was the one Aya asked about."),
        ("Mika got away.", "Mika was the one that got away."),
    ):
        assert Verdict.DUPLICATE not in both_ways(first, second)


@pytest.mark.parametrize(
    ("first", "second"),
    [
        ("It was Sato who praised the report.", "Sato praised the report."),
        ("Sato was the one who praised the report.", "Sato praised the report."),
        ("Aya praised Mika.", "Mika was the one Aya praised."),
        # A name after "the one" opens its clause; "one" counts nothing there.
        ("Ken called Aya.", "Aya was the one Ken called."),
        (
            "ケーキを焼いたのはアヤで、パンを焼いたのはケンだった。",
            "アヤがケーキを焼き、ケンがパンを焼いた。",
        ),
    ],
)
def test_a_cleft_is_a_restatement_of_the_plain_sentence(first: str, second: str) -> None:
    assert both_ways(first, second) == (Verdict.DUPLICATE, Verdict.DUPLICATE)


def test_an_owner_is_no_companion() -> None:
    # Lunch with Emi's brother is not lunch with Emi: an owner and a party of the event.
    for first, second in (
        ("Master had lunch with Emi's brother.", "Master had lunch with Emi and her brother."),
        ("マスターはエミの兄と昼食を食べた。", "マスターはエミとその兄と昼食を食べた。"),
    ):
        assert both_ways(first, second) == (Verdict.DISTINCT, Verdict.DISTINCT)
    # との describes its noun as an owner does; a place's name is no one to list with a
    # person (エミと横浜の水族館: with Emi, to Yokohama's aquarium).
    for first, second in (
        ("取引先がケンとの契約を打ち切った。", "ケンは取引先に契約を打ち切られた。"),
        ("マスターはエミと横浜の水族館に行った。", "マスターは横浜の水族館にエミと行った。"),
    ):
        assert both_ways(first, second) == (Verdict.DUPLICATE, Verdict.DUPLICATE)


@pytest.mark.parametrize(
    ("first", "second"),
    [
        # Owners of two things, each owning the other's in the other text.
        ("ケンの姉はアヤの先生だ。", "アヤの姉はケンの先生だ。"),
        # は on a universal quantity under a denial makes it partial (not all / none).
        ("マスターはクッキーを全部は食べなかった。", "マスターはクッキーを全部食べなかった。"),
        ("マスターは毎日はジムに行かない。", "マスターは毎日ジムに行かない。"),
        # An adjective の makes a noun is the one compared (古いのより: than the old one).
        ("ケンの新しい車は古いのより速い。", "ケンの古い車は新しいのより速い。"),
    ],
)
def test_owners_traded_and_a_partial_denial_are_two_facts(first: str, second: str) -> None:
    assert both_ways(first, second) == (Verdict.DISTINCT, Verdict.DISTINCT)


def test_a_partial_denial_and_an_owner_keep_to_their_clause() -> None:
    # Which clause denies "all" still shows; a denial in another clause makes no は partial;
    # a clause that ends at a comma settles whose attribute its subject is.
    denied = (
        "ケーキは全部は食べなかったが、クッキーは全部食べた。",
        "ケーキは全部食べたが、クッキーは全部は食べなかった。",
    )
    assert both_ways(*denied) == (Verdict.DISTINCT, Verdict.DISTINCT)
    for first, second in (
        ("本は全部は読んだが、内容が分からなかった。", "本は全部読んだが、内容が分からなかった。"),
        (
            "ケンは体重が70キロで、アヤは身長が160センチだ。",
            "アヤの身長は160センチで、ケンの体重は70キロだ。",
        ),
    ):
        assert both_ways(first, second) == (Verdict.DUPLICATE, Verdict.DUPLICATE)


@pytest.mark.parametrize(
    ("first", "second"),
    [
        # Antonyms that grade (a common comparative: hotter, cheaper, better): not hot
        # is not cold.
        ("The soup at the diner wasn't hot.", "The soup at the diner was cold."),
        ("The hotel near the station wasn't expensive.", "The hotel near the station was cheap."),
        ("Aya's suitcase wasn't heavy.", "Aya's suitcase was light."),
        ("The coffee wasn't good.", "The coffee was bad."),
        ("アヤのスーツケースは重くなかった。", "アヤのスーツケースは軽かった。"),
        (
            "The gas tank wasn't full when Ken returned the car.",
            "The gas tank was empty when Ken returned the car.",
        ),
        ("The meeting room wasn't warm this morning.", "The meeting room was cool this morning."),
        ("ケンの説明は十分だった。", "ケンの説明は不十分だった。"),
        ("マスターが行った日の札幌は暑くなかった。", "マスターが行った日の札幌は寒かった。"),
        # Antonyms only in a sense that does not stand for one of them (troops).
        (
            "The new team lead isn't friendly toward Master.",
            "The new team lead is hostile toward Master.",
        ),
        # Two words glossed alike, each written in both texts, are each themselves.
        (
            "マスターは冬物の服を押し入れからクローゼットに移した。",
            "マスターは冬物の服をクローゼットから押し入れに移した。",
        ),
        # Two who trade places across two verbs, in different roles.
        (
            "According to Priya, the deploy freeze starts Thursday; Marco wasn't sure.",
            "According to Marco, the deploy freeze starts Thursday; Priya wasn't sure.",
        ),
        # The same two times, the standard of the comparison in the other.
        (
            "This year's plum wine is sweeter than last year's.",
            "Last year's plum wine is sweeter than this year's.",
        ),
        ("今年漬けた梅酒は、去年のものより甘い。", "去年漬けた梅酒は、今年のものより甘い。"),
        (
            "2020年に買った車は2023年に買った車より燃費がいい。",
            "2023年に買った車は2020年に買った車より燃費がいい。",
        ),
        (
            "The 2024 vintage is better than the 2023 vintage.",
            "The 2023 vintage is better than the 2024 vintage.",
        ),
        ("Sales were higher in 2021 than 2019.", "Sales were higher in 2019 than 2021."),
    ],
)
def test_a_middle_a_troop_sense_places_and_standards_traded_are_two_facts(
    first: str, second: str
) -> None:
    assert both_ways(first, second) == (Verdict.DISTINCT, Verdict.DISTINCT)


@pytest.mark.parametrize(
    ("first", "second"),
    [
        # Antonyms with nothing between, or only two values on their scale.
        ("Master wasn't present at the meeting.", "Master was absent from the meeting."),
        ("Ken's covid test wasn't positive.", "Ken's covid test was negative."),
        ("The dinner wasn't formal.", "The dinner was informal."),
        ("Master wasn't awake when I called.", "Master was asleep when I called."),
        ("The pharmacy was not open on Sunday.", "The pharmacy was closed on Sunday."),
        ("マスターは歯医者の予約を覚えていなかった。", "マスターは歯医者の予約を忘れていた。"),
    ],
)
def test_a_denied_word_is_its_antonym_where_nothing_lies_between(first: str, second: str) -> None:
    assert both_ways(first, second) == (Verdict.DUPLICATE, Verdict.DUPLICATE)


@pytest.mark.parametrize(
    ("first", "second"),
    [
        # The standard phrased another way, a converse comparative, two comparisons, より
        # of a start, a limit: no values traded across one comparison.
        (
            "Ken ran 5 km, more than Aya, who ran 3 km.",
            "Ken ran 5 km, which is more than the 3 km Aya ran.",
        ),
        ("Winter 2022 was colder than winter 2023.", "Winter 2023 was warmer than winter 2022."),
        (
            "Ken earned more than Aya in 2023, but Aya earned more than Ken in 2024.",
            "Aya earned more than Ken in 2024, but Ken earned more than Aya in 2023.",
        ),
        ("2時より会議、4時より懇親会がある。", "4時より懇親会、2時より会議がある。"),
        ("More than 30 people came on Friday.", "More than 30 people came on Friday."),
    ],
)
def test_no_standard_traded_where_the_comparison_says_none(first: str, second: str) -> None:
    from ego_mcp.memory.guard.analysis import read
    from ego_mcp.memory.guard.comparison import standards_traded

    assert standards_traded(read(first), read(second)) == []
    assert standards_traded(read(second), read(first)) == []


def test_a_text_without_a_comparison_has_no_standard() -> None:
    from ego_mcp.memory.guard.analysis import read

    assert read("Ken went out.").standard is None
    assert read("2時より会議がある。").standard is None
    assert read("More than 30 people came.").standard is None
    assert read("今年の梅酒は去年の梅酒より甘い。").standard == frozenset({"rel:last-year"})


@pytest.mark.parametrize(
    ("first", "second"),
    [
        ("Master simmered 2.5 L of chicken stock.", "Master simmered 2,500 mL of chicken stock."),
        (
            "Master's gonna repaint the railing this weekend.",
            "Master is going to repaint the railing this weekend.",
        ),
        # An adjective's un- negates it, as 不 and 未 do.
        (
            "The back door wasn't locked when Master got home.",
            "The back door was unlocked when Master got home.",
        ),
        ("The tap water isn't safe to drink.", "The tap water is unsafe to drink."),
        ("Master doesn't like spicy food.", "Master dislikes spicy food."),
    ],
)
def test_units_spoken_contractions_and_negating_prefixes_are_restatements(
    first: str, second: str
) -> None:
    assert both_ways(first, second) == (Verdict.DUPLICATE, Verdict.DUPLICATE)


@pytest.mark.parametrize(
    ("first", "second"),
    [
        # A verb's un- undoes the deed: not doing it is not undoing it.
        ("Master didn't lock the back door.", "Master unlocked the back door."),
        ("Master didn't pack the suitcase.", "Master unpacked the suitcase."),
        ("The back door was locked.", "The back door was unlocked."),
    ],
)
def test_a_deed_undone_is_not_the_deed_left_undone(first: str, second: str) -> None:
    assert both_ways(first, second) == (Verdict.DISTINCT, Verdict.DISTINCT)


@pytest.mark.parametrize(
    ("first", "second"),
    [
        # "at all" stresses a denial; it counts nothing.
        ("The hotel bed wasn't comfortable at all.", "The hotel bed was really uncomfortable."),
        ("The train was late by an hour and a quarter.", "The train was late by 75 minutes."),
        # てる is ている said short; a habit is told in the present either way.
        ("弟は今、宿題をしてる。", "弟は今、宿題をしている。"),
        ("毎晩、ケンはギターを練習する。", "ケンは毎晩ギターを練習している。"),
        # The passive of a request: the one asked is its addressee, not the task's owner.
        ("ケンは部長に資料の作成を頼まれた。", "部長がケンに資料の作成を頼んだ。"),
        # しか after a list stands at each of its nouns, in any order.
        ("棚にはパンと牛乳とバターしかなかった。", "棚にはバターとパンと牛乳しかなかった。"),
        # A noun that ends one text as its frame is the same noun in the other.
        (
            "試験に合格するため、ケンは毎日図書館に通った。",
            "ケンは毎日図書館に通った。試験に合格するためだ。",
        ),
        ("アヤが一番好きな果物は桃だ。", "桃は、アヤが一番好きな果物だ。"),
        # A person named in one role and told again by a pronoun in the other.
        (
            "Ken was praised by his coach after the match.",
            "After the match, Ken's coach praised him.",
        ),
        ("Master was promoted by his manager in May.", "In May, Master's manager promoted him."),
    ],
)
def test_emphasis_fractions_aspect_requests_lists_and_frames_restate(
    first: str, second: str
) -> None:
    assert both_ways(first, second) == (Verdict.DUPLICATE, Verdict.DUPLICATE)


@pytest.mark.parametrize(
    ("first", "second"),
    [
        # A state now and the bare present, which tells what is to come.
        ("姉は結婚している。", "姉は結婚する。"),
        # A frame noun is not the other text's word denied, compared with or followed.
        ("大阪に行く予定はない。", "大阪に行く予定だ。"),
        ("予定より早く大阪に着いた。", "早く大阪に着く予定だ。"),
        # "and a quarter of" is a share of what follows, not of the hour.
        (
            "Ken studied for two hours and a quarter of the class failed.",
            "Ken studied for 135 minutes and the class failed.",
        ),
        ("ケンだけがアヤと来た。", "ケンとアヤだけが来た。"),
        ("Ken's father scolded him.", "Ken scolded his father."),
        ("Aya was sent a letter by the school.", "Aya sent the school a letter."),
        # A noun in both parties' roles of each text proves no trade of the parties.
        ("マスターのチームはケンのチームに勝った。", "マスターのチームはケンのチームに負けた。"),
        # An amount told of a time where no noun stands before it: Monday's and Wednesday's.
        (
            "ケンは記録によると、月曜日に三キロ、水曜日に八キロ走ったそうだ。",
            "ケンは記録によると、月曜日に八キロ、水曜日に三キロ走ったそうだ。",
        ),
        # One verb, the owners of its two parties traded (に is a party's role, as a subject's).
        ("ケンのチームはアヤのチームに勝った。", "アヤのチームはケンのチームに勝った。"),
        # for and with are two parts: whom for, whom with.
        ("Ken baked a cake for Aya with Mia.", "Ken baked a cake for Mia with Aya."),
        # A comparison's sides traded, in a clause "but" gives as what the rest is in spite of.
        (
            "Ken thinks Aya's curry is better than his mother's, but he keeps quiet.",
            "Ken thinks his mother's curry is better than Aya's, but he keeps quiet.",
        ),
        # The copula で joins two copular clauses, no place: their nouns swapped differ.
        ("ケンが受付担当で、アヤが会計担当だ。", "ケンが会計担当で、アヤが受付担当だ。"),
        # A name and a pronoun that trade places are two people trading places.
        ("Tom called her.", "She called Tom."),
        ("Tom gave her a book.", "She gave Tom a book."),
        ("Anna lent her car to him.", "He lent his car to Anna."),
        ("Ken was scolded by his father.", "Ken's father was scolded by him."),
        ("The train was late by an hour and a quarter.", "The train was late by 90 minutes."),
    ],
)
def test_a_state_and_what_is_to_come_and_frames_denied_differ(first: str, second: str) -> None:
    assert both_ways(first, second) == (Verdict.DISTINCT, Verdict.DISTINCT)


@pytest.mark.parametrize(
    ("first", "second"),
    [
        # The events before and after order, told the other way round.
        (
            "Ken washed the dishes before he fed the dog.",
            "Ken fed the dog before he washed the dishes.",
        ),
        (
            "Ken washed the dishes after feeding the dog.",
            "Ken fed the dog after washing the dishes.",
        ),
        ("Ken washed the dishes, then fed the dog.", "Ken fed the dog, then washed the dishes."),
        ("ケンは皿を洗ったあと、犬に餌をやった。", "ケンは犬に餌をやったあと、皿を洗った。"),
        ("ケンは皿を洗う前に犬に餌をやった。", "ケンは犬に餌をやる前に皿を洗った。"),
        # out of and off tell where from, as from does.
        (
            "Ken moved the plants out of the kitchen into the hall.",
            "Ken moved the plants out of the hall into the kitchen.",
        ),
        (
            "Aya was moved off the night shift and onto the day shift.",
            "Aya was moved off the day shift and onto the night shift.",
        ),
        # From and to traded, though the parser read no verb in one text ("runs").
        (
            "From May the shuttle runs from the airport to Central Station at 6:00.",
            "From May the shuttle runs from Central Station to the airport at 6:00.",
        ),
        # The owners of the owners of the two sides of a comparison, traded.
        ("ケンの家の犬は、アヤの家の犬より大きい。", "アヤの家の犬は、ケンの家の犬より大きい。"),
    ],
)
def test_events_ordered_the_other_way_and_sources_swapped_differ(first: str, second: str) -> None:
    assert both_ways(first, second) == (Verdict.DISTINCT, Verdict.DISTINCT)


def test_a_name_where_the_other_text_says_he_differs() -> None:
    # "He" may be another: the name is a fact the other text lacks.
    assert both_ways("Ken got a haircut on Thursday.", "He got a haircut on Thursday.") == (
        Verdict.DISTINCT,
        Verdict.DISTINCT,
    )


@pytest.mark.parametrize(
    ("first", "second"),
    [
        ("The bus leaves at ten past seven.", "The bus leaves at 7:10."),
        ("The bus leaves at twenty to nine.", "The bus leaves at 8:40."),
        (
            "ケンは月曜日に三キロ、水曜日に八キロ走った。",
            "水曜日に八キロ、月曜日に三キロ、ケンは走った。",
        ),
        # 十分 right after a noun is ten minutes (徒歩十分だ), as 五分 is five.
        ("アヤの家は駅から徒歩十分だ。", "アヤの家は駅から徒歩10分だ。"),
        ("Aya wasn't able to join the trip.", "Aya was unable to join the trip."),
        ("Aya's daughter was praised by her coach.", "Aya's daughter's coach praised her."),
        # A passive that keeps its object: its subject is the one it went to.
        ("The school sent Aya a letter.", "Aya was sent a letter by the school."),
        ("Ken lent Aya his umbrella.", "Aya borrowed Ken's umbrella."),
    ],
)
def test_clock_words_minutes_on_foot_unable_and_a_pronoun_for_a_relative_restate(
    first: str, second: str
) -> None:
    assert both_ways(first, second) == (Verdict.DUPLICATE, Verdict.DUPLICATE)


def test_clock_words_told_otherwise_differ() -> None:
    assert both_ways("The bus leaves at twenty to nine.", "The bus leaves at 8:20.") == (
        Verdict.DISTINCT,
        Verdict.DISTINCT,
    )


def test_one_verb_on_both_sides_of_before_orders_nothing() -> None:
    assert both_ways("I ate before Tom ate.", "Before Tom ate, I ate.") == (
        Verdict.DUPLICATE,
        Verdict.DUPLICATE,
    )


@pytest.mark.parametrize(
    ("existing", "new"),
    [
        ("Master stopped to buy flowers for Ingrid.", "Master stopped buying flowers for Ingrid."),
        ("Master started to learn the piano.", "Master started learning the piano."),
    ],
)
def test_a_verb_completed_otherwise_is_never_refused(existing: str, new: str) -> None:
    """A to-infinitive for a gerund tells another fact after some verbs (stop, try) and
    the same after others (start): a possible duplicate, never a refusal."""
    verdict, found = differences(existing, new)
    assert verdict is Verdict.POSSIBLE, found
    assert any(item.startswith("wording: st") for item in found), found


@pytest.mark.parametrize(
    ("existing", "new"),
    [
        # A gerund after "than" stays the verb it is (the other text may tag it a noun).
        ("Master enjoys cooking more than cleaning.", "Master enjoys cleaning more than cooking."),
        # "one" before a noun, or with "of", is a number.
        ("Master gave her one apple.", "Master gave her apples."),
        ("Master heard that one of his students failed.", "Master heard that his students failed."),
        ("Master gave the chief one report.", "Master gave the chief reports."),
        # A short weekday is a day only where a day stands.
        ("Master's friend Thu moved to Hanoi.", "Master's friend moved to Hanoi on Thursday."),
        # "will" and the present tell two times (a plan, a prediction, a state, a habit).
        (
            "The baby is sleeping through the night this month.",
            "The baby will sleep through the night this month.",
        ),
        ("Ken is sick on Monday.", "Ken will be sick on Monday."),
        ("Master jogs every morning.", "Master will jog every morning."),
        ("マスターは明日行くって！", "マスターは明日行くそうだ。"),  # an insistence, or a report
        # From the reviews: a past plan, a report, a saying, the future perfect, a
        # deadline, the substitute "one" and its plural, an order, the diarist's own word.
        ("Master was going to call Ken on Monday.", "Master called Ken on Monday."),
        ("Master said Ken will come on Friday.", "Master said Ken came on Friday."),
        ("Master will tell Ken the news on Monday.", "Master told Ken the news on Monday."),
        ("Master will have left by Monday.", "Master left by Monday."),
        ("Master will finish the report by Friday.", "Master will finish the report on Friday."),
        ("Master found this one online.", "Master found these online."),
        ("Master gave her one big apple.", "Master gave her big apples."),
        ("マスターはケンに勉強しなさいと言った。", "マスターはケンに勉強すると言った。"),
        ("マスターは行けって。", "マスターは行くそうだ。"),
        ("私、明日行くって。", "私は明日行くそうだ。"),
        ("Master bought the red one.", "Master bought the red ones."),
        ("Master played the red one.", "Master played the red ace."),
        ("ご主人様に「お帰りなさい」と言った。", "ご主人様に「帰る」と言った。"),
        ("Master's score went up by 10.", "Master's score went up 10."),
        ("Master plays tennis when Ken comes.", "Master plays tennis whenever Ken comes."),
    ],
)
def test_readings_of_one_weekdays_and_plans_refuse_no_other_fact(existing: str, new: str) -> None:
    for first, second in ((existing, new), (new, existing)):
        assert differences(first, second)[0] is not Verdict.DUPLICATE, (first, second)


@pytest.mark.parametrize(
    ("existing", "new"),
    [
        ("Master is driving to Nagano.", "Master will drive to Nagano."),  # no time: a plan
        ("Master might drive to Nagano this Saturday.",
         "Master will drive to Nagano this Saturday."),
        ("Master drove to Nagano last Saturday.", "Master will drive to Nagano next Saturday."),
        ("Master is working late this week.", "Master will work late this week."),  # now
        ("Master wants to drive to Nagano tomorrow.", "Master will drive to Nagano tomorrow."),
        ("Master is nervous about tomorrow's interview.",
         "Master will be nervous about tomorrow's interview."),
        ("Master is glad that Ken will come this Saturday.",
         "Master is glad that Ken came this Saturday."),
        ("Master will have finished the fence this weekend.",
         "Master finished the fence this weekend."),
    ],
)  # fmt: skip
def test_will_stays_a_fact_whatever_time_or_clause_is_told(existing: str, new: str) -> None:
    """ "will" stays a qualifier whatever time is told (a futurate reading that dropped it
    beside a time still to come was taken back: it refused "Master is nervous about
    tomorrow's interview" / "will be nervous", the time being another word's)."""
    for first, second in ((existing, new), (new, existing)):
        assert differences(first, second)[0] is not Verdict.DUPLICATE, (first, second)


def test_a_text_that_repeats_its_sentence_reads_each_pair_of_verbs_once(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Role conflicts across two verbs hang from the verbs' keys: a pair of verbs told
    forty times in each text is read once, not 1,600 times (a minute at 1,500
    characters before)."""
    from ego_mcp.memory.guard import evidence

    calls: list[object] = []
    original = evidence._owners_across

    def counted(*args: object) -> object:
        calls.append(args)
        return original(*args)  # type: ignore[arg-type]

    monkeypatch.setattr(evidence, "_owners_across", counted)
    found = differences("Ken taught Master chess. " * 40, "Master learned chess from Ken. " * 40)
    assert found[0] is Verdict.POSSIBLE
    assert len(calls) == 1


@pytest.mark.parametrize(
    ("first", "second"),
    [
        (
            "Master never forgets to feed Kinako in the morning.",
            "Master always remembers to feed Kinako in the morning.",
        ),
        ("Master didn't forget any of the birthdays.", "Master remembered all of the birthdays."),
        ("None of the guests were happy.", "All of the guests were unhappy."),
        ("Not one of Master's friends came.", "None of Master's friends came."),
        ("マスターは一度も約束を忘れなかった。", "マスターはいつも約束を覚えていた。"),
        ("Master didn't forget a single birthday.", "Master remembered all of the birthdays."),
        # The perfect denied still holds now: no tense between a verb and its opposite.
        ("Master hasn't forgotten the promise.", "Master remembers the promise."),
    ],
)
def test_a_denial_of_every_case_is_its_opposite_affirmed_of_every_case(
    first: str, second: str
) -> None:
    """De Morgan's laws: never forgets / always remembers (``guard/quantity.py``)."""
    assert both_ways(first, second) == (Verdict.DUPLICATE, Verdict.DUPLICATE)


@pytest.mark.parametrize(
    ("first", "second"),
    [
        # A quantity denied denies the predicate: not all of them, not one, not everyone.
        ("Not all of the seedlings survived.", "All of the seedlings survived."),
        ("Not one of the seedlings died.", "One of the seedlings died."),
        ("Not everyone liked the cake.", "Everyone liked the cake."),
        ("Not many people came to the party.", "Many people came to the party."),
        # A quantity denied is a quantity of its own, no denial of the predicate (a
        # review found these refused while "not" was read as denying the predicate).
        ("Not all of the guests were happy.", "All of the guests were unhappy."),
        ("Not everyone was present.", "Everyone was absent."),
        ("Not many people came to the party.", "Many people didn't come to the party."),
        ("Not everyone liked the cake.", "Nobody liked the cake."),
        ("Not everything was broken.", "Nothing was broken."),
        ("Master doesn't always forget to feed Kinako.", "Master always remembers to feed Kinako."),
        ("Master doesn't always walk to work.", "Master doesn't walk to work."),
        ("マスターはビールを一本も飲まなかった。", "マスターはビールを一本飲んだ。"),
        # Opposites with a middle stay apart across a universal (a draw; neutral reviews).
        ("Ken never wins at chess.", "Ken always loses at chess."),
        ("None of the reviews were positive.", "All of the reviews were negative."),
        ("ケンは一度も勝たなかった。", "ケンはいつも負けた。"),
        # A deed then, a habit now: no denial of every case meets the universal.
        ("Master never forgot to feed Kinako.", "Master always remembers to feed Kinako."),
        # Not every case denied, or the same predicate: two facts.
        ("Not all of the seedlings survived.", "None of the seedlings survived."),
        ("Master didn't eat any of the cookies.", "Master ate all of the cookies."),
        ("Nobody came to the party.", "Everybody came to the party."),
        ("Master never forgets to feed Kinako.", "Master forgot to feed Kinako this morning."),
        ("Master didn't forget the birthdays.", "Master always remembers the birthdays."),
    ],
)
def test_a_quantity_denied_or_a_denial_not_of_every_case_is_distinct(
    first: str, second: str
) -> None:
    assert both_ways(first, second) == (Verdict.DISTINCT, Verdict.DISTINCT)


@pytest.mark.parametrize(
    ("first", "second"),
    [
        # A review of 2026-12-07 found a から read as a passive's doer refusing these: it
        # marks the one taken from, kept from or saved from as often as the doer.
        ("財布がケンから盗まれた。", "ケンが財布を盗んだ。"),
        ("ケンは熊から救われた。", "熊がケンを救った。"),
        # And names met where they have the same part lost which owner went with which
        # clause.
        (
            "Ken's brother helped Emi, and Emi's brother helped Ken.",
            "Emi's brother helped Emi, and Ken's brother helped Ken.",
        ),
        (
            "ケンの犬がエミを噛み、エミの犬がケンを噛んだ。",
            "エミの犬がエミを噛み、ケンの犬がケンを噛んだ。",
        ),
    ],
)
def test_a_source_or_crossed_owners_are_no_restatement(first: str, second: str) -> None:
    assert both_ways(first, second) == (Verdict.DISTINCT, Verdict.DISTINCT)


def test_the_one_of_a_denial_of_every_case_is_no_count() -> None:
    """ "Not one of them": none at all, but "not one year old" counts; 一本も, どれも,
    少しも are a denial's "any" only where a denial follows in their clause."""
    assert read("Not one of the guests came.").numbers == ()
    assert read("Not one of the guests came.").denies_every
    assert [n.value for n in read("Ken's daughter is not one year old yet.").numbers] == ["1"]
    assert "any" in read("ケンは一本も飲まなかった。").qualifiers
    assert "any" in read("ケーキはどれも売れなかった。").qualifiers
    assert "any" not in read("ケーキはどれも美味しかった。").qualifiers
    assert "any" not in read("ケーキはどれもおいしかったが、値段は高くなかった。").qualifiers
    assert "any" not in read("ケンは1時間も待った。").qualifiers
    assert "any" not in read("ケンは1時間も待って、約束を忘れなかった。").qualifiers
    assert "any" not in read("ケンは1時間も待ったのに、約束を忘れなかった。").qualifiers
    assert "any" in read("ビールを一本も飲んでいない。").qualifiers


@pytest.mark.parametrize(
    ("first", "second"),
    [
        # A denial that lands on a number is kept, as a denial of no word.
        ("Ken was not one of the winners.", "Ken was one of the winners."),
        ("Ken is not 30.", "Ken is 30."),
        # Two denials of no word are not one affirmation: they are counted, not paired.
        ("Ken is not at home, and Emi is not at work.", "Ken is at home, and Emi is at work."),
        (
            "Ken was not one of the winners. The meeting is not at 3.",
            "Ken was one of the winners. The meeting is at 3.",
        ),
    ],
)
def test_a_denial_of_a_number_is_no_restatement(first: str, second: str) -> None:
    assert both_ways(first, second) == (Verdict.DISTINCT, Verdict.DISTINCT)


def test_a_single_thing_in_an_affirmed_clause_is_a_word() -> None:
    """Only a denied clause's "a single" is the denial's emphasis."""
    first = "Ken booked a single room because the double was not free."
    second = "Ken booked a room because the double was not free."
    assert verdict(first, second) is not Verdict.DUPLICATE
