"""Pupil-like names in a text: a first name becomes personal data next to a surname, a class, a pupil word or
a diagnosis/grade; famous people of the curriculum are never pupils."""

from __future__ import annotations

import re
from bisect import bisect_left
from functools import lru_cache

from core.safety.text import fold_for_rules


def _wordset(words: str) -> frozenset[str]:
    return frozenset(words.split())


_FIRST_NAMES = _wordset("""
max paul leon luca lukas jonas tim tom felix noah elias finn ben julian niklas moritz jan david philipp alexander
simon henry emil anton jakob jonathan fabian florian tobias sebastian daniel kevin marcel dennis nico lennard
leonard mats matteo louis linus oskar karl hannes jannik justin marvin pascal robin timo vincent erik johannes
hans peter lasse malte ole till
lea lena leonie mia emma hannah hanna sophie sophia anna marie emily lina laura lara sarah julia lisa johanna clara
luisa amelie charlotte ella frieda mila nele paula greta jana katharina vanessa jessica michelle chantal jasmin
nina celine melina maja ida pia finja jule lotta marlene helena isabell annika carolin franziska svenja jolina
mehmet mustafa emre can deniz yusuf ali ahmet burak kerem cem arda eren berkay hueseyin hasan hakan oemer kaan
baran elif zeynep ayse aylin merve esra buesra selin emine fatma hatice melek defne ecrin azra irem sena dilara
mohammed muhammad mohamed ahmad ahmed omar karim hamza ibrahim khaled mahmoud amir bilal rami yasin jamal samir
tarek fatima aisha amira layla leyla mariam maryam noor nour yasmin salma rana hiba malak
nikola luka marko ivan dominik kacper jakub mateusz piotr filip milan dmitri artem maxim nikita daria katarzyna
zofia natalia anastasia milena alina polina olga ksenia aleksandra jovana kristina viktoria sofia valentina
oezlem yasemin guel derya ebru huelya songuel sevgi nesrin meryem sibel tuelay serkan volkan murat ozan tuncay
kemal osman mert furkan enes yunus emir alp ilayda ceylin eylul nisa kuebra sude beyza
khalid tariq nadia rania samira dana lina jana reem hussein mustafa abdul yara rahel
oksana olena tetiana iryna yulia bohdan andrii taras mykola serhii wiktoria agnieszka ewa michal tomasz lukasz
pawel krzysztof mariusz kamil oliwia zuzanna julian artur denis
giulia giovanni alessandro francesca chiara lorenzo andrea diego carlos lucia pablo joao pedro tiago ines
minh linh anh thao duc quang huong trang tuan
""")
# Common surnames: a first name followed by one of these is a person even without any other context.
_SURNAMES = _wordset("""
mueller schmidt schneider fischer weber meyer wagner becker schulz hoffmann schaefer koch bauer richter klein wolf
schroeder neumann schwarz zimmermann braun krueger hofmann hartmann lange schmitt werner schmitz krause meier
lehmann schmid schulze maier koehler herrmann koenig walter mayer huber kaiser fuchs peters lang scholz moeller
weiss jung hahn schubert vogel friedrich keller guenther frank berger winkler roth beck lorenz baumann franke
albrecht schuster simon ludwig boehm winter kraus martin schumacher kraemer vogt stein jaeger otto sommer gross
seidel heinrich brandt haas schreiber graf schulte dietrich ziegler kuhn kuehn pohl engel horn busch bergmann
thomas voigt sauer arnold wolff pfeiffer mustermann musterfrau
yilmaz kaya demir sahin celik yildiz oeztuerk ozturk aydin oezdemir ozdemir arslan dogan kilic aslan cetin kara
koc kurt oezkan simsek polat erdogan
hassan hussein khalil haddad saleh nasser abdullah
nowak kowalski kowalska wisniewski wojcik kowalczyk kaminski lewandowski zielinski szymanski wozniak dabrowski
petrovic jovanovic popovic nikolic horvat novak ivanov petrov smirnov kuznetsov popov kovalenko
yildirim karaca aksoy guenes oezer tekin acar bulut korkmaz kocak yavuz altun
ahmadi hosseini mohammadi rahimi karimi sadeghi rezaei hashemi
nguyen tran pham hoang huynh phan dang bui
rossi russo bianchi ferrari esposito romano ricci garcia fernandez lopez martinez rodriguez gonzalez silva
santos pereira costa oliveira ivanova petrova kovac shevchenko bondarenko tkachenko melnyk
""")
# People of the curriculum. A surname here is never a pupil's; full names cover famous people with common surnames.
_FAMOUS_SURNAMES = _wordset("""
goethe schiller kafka heine lessing fontane buechner brecht hesse rilke kleist hoelderlin eichendorff mann storm
droste kaestner remarque boell grass duerrenmatt zweig celan borchert bachmann jandl suesskind herrndorf tucholsky
morgenstern ringelnatz hauptmann schnitzler trakl heym benn hauff grimm andersen shakespeare orwell golding
steinbeck hemingway salinger dickens austen rowling tolkien lindgren preussler funke ende pressler pausewang
noestlinger boie steinhoefel kehlmann wedekind zuckmayer seghers frisch woyzeck werther karenina stuart
newton einstein curie planck ohm bohr heisenberg schroedinger hawking faraday volta ampere coulomb joule kelvin
celsius fahrenheit watt hertz roentgen meitner kepler galilei kopernikus pythagoras thales euklid archimedes
euler gauss leibniz riemann noether darwin mendel pasteur fleming nobel lavoisier dalton rutherford thomson hooke
boyle bunsen liebig haber woehler kekule avogadro mendelejew humboldt goodall lovelace turing zuse babbage
diesel benz daimler gutenberg luther melanchthon zwingli calvin muentzer tetzel fugger barbarossa
bismarck hitler goebbels himmler goering eichmann speer mengele heydrich stauffenberg elser scholl
bonhoeffer niemoeller schindler adenauer merkel kohl steinmeier gauck weizsaecker genscher honecker
ulbricht mielke krenz schabowski biermann ebert stresemann hindenburg rathenau erzberger scheidemann noske bebel
lassalle marx engels luxemburg liebknecht metternich napoleon caesar augustus nero cicero kolumbus magellan
amundsen armstrong gagarin kennedy gorbatschow lincoln washington mandela gandhi obama trump putin selenskyj
churchill stalin lenin roosevelt thunberg yousafzai kahlo picasso monet gogh duerer beuys hundertwasser
mozart bach beethoven haydn brahms haendel vivaldi chopin verdi freud kant hegel nietzsche
sokrates platon aristoteles descartes rousseau voltaire locke hobbes montesquieu arendt adorno habermas
""")
_FAMOUS_FULL = frozenset({
    "helmut schmidt", "thomas mann", "heinrich mann", "klaus mann", "max frisch", "anne frank", "otto frank",
    "martin luther", "robert koch", "robert bosch", "carl bosch", "otto hahn", "michael ende", "gottfried keller",
    "willy brandt", "karl marx", "carl benz", "maria stuart", "anna karenina", "maria theresia", "sophie scholl",
    "hans scholl", "max planck", "rosa luxemburg", "friedrich engels", "albert schweitzer", "emil sinclair",
    "paul celan", "jakob grimm", "wilhelm grimm", "helmut kohl", "olaf scholz", "angela merkel", "gerhard schroeder",
    "christa wolf", "siegfried lenz", "martin walser", "robert walser", "wilhelm busch", "peter weiss",
    "joseph roth", "emil nolde", "franz marc", "paul klee", "marie curie", "lise meitner", "ada lovelace",
    "alan turing", "karl may", "daniel kehlmann", "juli zeh", "ernst jandl", "hannah arendt", "max weber",
    "anna seghers", "emil fischer", "hermann hesse", "richard wagner", "franz schubert", "ludwig erhard",
    "walter ulbricht", "jan hus", "rudolf hess", "james cook", "thomas mueller", "karl der", "max und",
})
_NAME_STOP = _wordset("""
der die das den dem des ein eine einen einem einer und oder aber mit bei fuer von vom zum zur im in am an auf aus
nach vor ueber unter hat ist war wird hatte sind kann soll muss braucht bekommt schreibt macht geht ich er sie es
wir ihr mein meine dein unser euer sein ihre bitte danke hallo montag dienstag mittwoch donnerstag freitag
samstag sonntag januar februar maerz april mai juni juli august september oktober november dezember heute morgen
klasse klassen note noten mathe mathematik deutsch englisch physik chemie biologie bio geschichte erdkunde
geographie politik sport kunst musik religion ethik latein franzoesisch informatik hausaufgaben hausaufgabe
aufgabe aufgaben probleme problem schwierigkeiten hilfe unterstuetzung foerderung angst zeit lust geld arbeit
punkte fehler test tests klausur klausuren arbeitsblatt arbeitsblaetter material schule unterricht stunde
stunden minuten frage fragen text texte buch buecher ferien pause lehrer lehrerin eltern mutter vater familie
freunde freund freundin spass aerger stress aepfel birnen bonbons euro cent meter kilometer liter gramm grad
adhs ads lrs autismus legasthenie dyskalkulie diabetes epilepsie asthma
""")
_NOUN_SUFFIX = ("ung", "ungen", "heit", "keit", "schaft", "tion", "taet", "ismus", "nis", "ment", "blatt",
                "blaetter", "aufgabe", "aufgaben", "arbeit", "material", "stunde", "test", "text", "plan")
_SURNAME_SUFFIX = ("mann", "ski", "ska", "vic", "wicz", "ov", "ova", "ow", "enko", "oglu", "zki", "sky")

_TOKEN = re.compile(r"[^\W\d_]+(?:[-'’][^\W\d_]+)*+")
_HEALTH_WORDS = (
    r"adhs|ads|autismus|autist\w*|asperger\w*|lrs|legasthen\w*|lese-?rechtschreib-?schw\w*|dyskalkulie|"
    r"rechenschw\w*|diabetes|diabetiker\w*|epilepsie|epileptiker\w*|asthma|allergi\w*|depression\w*|depressiv\w*|"
    r"angststörung\w*|angststoerung\w*|essstörung\w*|essstoerung\w*|magersucht|magersüchtig|bulimie|borderline|"
    r"trauma\w*|ptbs|krebs|leukämie|leukaemie|chronisch krank|behinderung\w*|förderbedarf\w*|foerderbedarf\w*|"
    r"förderschwerpunkt\w*|diagnose\w*|diagnostiziert|therapie\w*|therapeut\w*|psychiat\w*|medikament\w*|ritalin|"
    r"methylphenidat|insulin|schwanger\w*|suizidgedanken|selbstverletz\w*|ritzt sich|tourette|sehbehindert\w*|"
    r"hörgeschädigt\w*|gehörlos\w*|rollstuhl\w*|down-syndrom|trisomie\w*"
)
_BEHAVIOUR_WORDS = (
    r"stört|stoert|schwänzt|schwaenzt|gemobbt|mobbt|aggressiv\w*|verhaltensauffällig\w*|verhaltensauffaellig\w*|"
    r"prügelt|pruegelt|klaut|jugendamt\w*|kindeswohl\w*|pflegefamilie|heimkind|schulverweis|klassenkonferenz|"
    r"ordnungsmaßnahme\w*|sitzen ?geblieben|sitzenbleiben|versetzungsgefährdet|versetzungsgefaehrdet|"
    r"nicht versetzt|fehlt (?:oft|häufig|ständig|unentschuldigt)"
)
HEALTH = re.compile(rf"\b(?:{_HEALTH_WORDS})\b")
_CONTEXT = re.compile(rf"\b(?:{_HEALTH_WORDS}|{_BEHAVIOUR_WORDS})\b")
GRADE = re.compile(
    r"\b(?:eine?n?|die|der|seine|ihre|mit|auf|nur|glatte)\s+(?:glatte\s+)?(?:[1-6](?:[+-]|,\d)?|eins|zwei|drei|"
    r"vier|fünf|fuenf|sechs)(?:\s?(?:plus|minus))?\s+(?:in|im|auf|bei)\s+(?:der\s+|dem\s+)?[^\W\d_]+"
    r"|\bnote\s*:?\s*(?:[1-6][+-]?(?!\d)|sehr gut|gut|befriedigend|ausreichend|mangelhaft|ungenügend)"
    r"|\b\d{1,2}\s+(?:notenpunkte|punkte)\s+(?:in|im)\s+[^\W\d_]+"
    r"|\b(?:sitzen ?geblieben|sitzenbleiben|versetzungsgefährdet|versetzungsgefaehrdet|nicht versetzt)\b"
)
_PUPIL_CUE = re.compile(
    r"\b(?:schüler|schülerin|schuelerin|schueler|schülers|sohn|tochter|kind|neffe|nichte|enkel|enkelin|"
    r"mutter von|vater von|eltern von|bruder von|schwester von)\s*:?\s+(?=\S)"
)
_CLASS_AFTER = re.compile(
    r"\s*(?:,\s*|\(\s*|\s+(?:aus|in)\s+(?:der|meiner|unserer|die)\s+(?:Klasse\s+)?)\d{1,2}\s?[a-zA-Z]\b"
    r"|\s+aus\s+(?:der|meiner|unserer)\s+(?:Klasse|Parallelklasse|Lerngruppe|AG)\b"
)


_INITIAL = re.compile(r"(?<![\w.])([A-ZÄÖÜ])\.\s?([A-ZÄÖÜ][a-zäöüßçğışéèáóúñ]+(?:-[A-ZÄÖÜ][a-zäöüß]+)?)")
_AFTER_INITIAL = re.compile(r" [A-ZÄÖÜ]\.(?!\w)")
CONTEXT_WINDOW = 90
# Patterns written in lower case (here and in core.safety.personal) run on `lower_keeping_offsets(text)`: same
# offsets, and much faster than case-insensitive matching (re's IGNORECASE defeats its literal prefix search).


def lower_keeping_offsets(text: str) -> str:
    low = text.lower()
    if len(low) == len(text):
        return low
    return "".join(c if len(c.lower()) != 1 else c.lower() for c in text)


@lru_cache(maxsize=4096)
def _fold_word(word: str) -> str:
    return fold_for_rules(word).replace("ı", "i").replace("ł", "l")


_WORD = re.compile(r"[^\W\d_]+")


def _recase(word: str) -> str:
    """"FINN" or "finn" -> "Finn", keeping the length (a letter whose case mapping is longer stays as it is)."""
    out = [word[0] if len(word[0].upper()) != 1 else word[0].upper()]
    out += [c if len(c.lower()) != 1 else c.lower() for c in word[1:]]
    return "".join(out)


def normalise_case(text: str) -> str:
    """The text with names written in capitals ("FINN HOFFMANN HAT ADHS") or in lower case ("jonas weber") written
    as names usually are, so that the name rules apply; same length and offsets as `text`. Lower-case words are
    recased only as a known first name followed by a known surname (otherwise "max. 5 Punkte" would be a name)."""
    tokens = [(m.start(), m.end(), m.group()) for m in _WORD.finditer(text)]
    out = list(text)

    def put(start: int, word: str) -> None:
        out[start:start + len(word)] = _recase(word)

    for i, (start, end, word) in enumerate(tokens):
        if len(word) >= 2 and word.isupper():
            put(start, word)
        elif word.islower() and i + 1 < len(tokens) and _fold_word(word) in _FIRST_NAMES:
            n_start, _, nxt = tokens[i + 1]
            if text[end:n_start] == " " and nxt.islower() and _fold_word(nxt) in _SURNAMES:
                put(start, word)
                put(n_start, nxt)
    return "".join(out)


def _capitalised(word: str) -> bool:
    return word[:1].isupper() and (len(word) == 1 or not word.isupper())


def near(positions: list[int], start: int, end: int, window: int = CONTEXT_WINDOW) -> bool:
    i = bisect_left(positions, start - window)
    return i < len(positions) and positions[i] <= end + window


class Names:
    """Finds pupil-like names among the capitalised tokens of one text."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.tokens = tokens = [(m.start(), m.end(), m.group()) for m in _TOKEN.finditer(text)]
        self.spaced = [text[a[1]:b[0]] in (" ", "\u00a0") for a, b in zip(tokens, tokens[1:], strict=False)]
        self.low = low = lower_keeping_offsets(text)
        self.context = sorted([m.start() for m in _CONTEXT.finditer(low)] + [m.start() for m in GRADE.finditer(low)])
        cues = list(_PUPIL_CUE.finditer(low))
        self.cue_ends = {m.end() for m in cues}
        self.cue_starts = [m.start() for m in cues]

    def word(self, i: int) -> str:
        return self.tokens[i][2]

    def adjacent(self, i: int) -> bool:
        return i < len(self.spaced) and self.spaced[i]

    def plausible(self, word: str) -> bool:
        """Could be a name: capitalised, not a function word, subject or school noun, not famous."""
        folded = _fold_word(word)
        return (len(word) >= 2 and _capitalised(word) and folded not in _NAME_STOP
                and folded not in _FAMOUS_SURNAMES and not folded.endswith(_NOUN_SUFFIX))

    @staticmethod
    def first_name(word: str) -> bool:
        return _capitalised(word) and all(_fold_word(part) in _FIRST_NAMES for part in word.split("-"))

    def famous_at(self, i: int) -> bool:
        """Token i is part of a famous person's name ("Marie Curie", "Anne Frank")."""
        word = _fold_word(self.word(i))
        if self.adjacent(i):
            nxt = _fold_word(self.word(i + 1))
            if nxt in _FAMOUS_SURNAMES or f"{word} {nxt}" in _FAMOUS_FULL:
                return True
        if i > 0 and self.adjacent(i - 1):
            prev = _fold_word(self.word(i - 1))
            if word in _FAMOUS_SURNAMES or f"{prev} {word}" in _FAMOUS_FULL:
                return True
        return False

    def class_after(self, i: int) -> bool:
        return _CLASS_AFTER.match(self.text, self.tokens[i][1]) is not None

    def initials(self) -> list[tuple[int, int]]:
        """"A. Nowak" (an initial and a surname): a known or typical surname, after a pupil word or near a
        diagnosis; and "Max M." (a first name and an initial) wherever the first name was found."""
        spans = []
        for m in _INITIAL.finditer(self.text):
            surname = _fold_word(m.group(2))
            if surname in _FAMOUS_SURNAMES or surname in _NAME_STOP:
                continue
            if surname in _SURNAMES or surname.endswith(_SURNAME_SUFFIX) or m.start() in self.cue_ends or \
                    near(self.context, m.start(), m.end(), 60):
                spans.append((m.start(), m.end()))
        return spans

    def find(self) -> list[tuple[int, int]]:
        spans: list[tuple[int, int]] = []
        tokens, i = self.tokens, 0
        while i < len(tokens):
            start, end, word = tokens[i]
            if not word[0].isupper() or not _capitalised(word) or self.famous_at(i):
                i += 1
                continue
            after_cue = start in self.cue_ends
            if self.first_name(word):
                j = i
                while j + 1 < len(tokens) and j - i < 2 and self.adjacent(j) and self.first_name(self.word(j + 1)) \
                        and not self.famous_at(j + 1):
                    j += 1  # "Anna Lena"
                if self.adjacent(j) and self.plausible(self.word(j + 1)):
                    surname = _fold_word(self.word(j + 1))
                    evidence = after_cue or self.class_after(j + 1) or near(self.context, start, tokens[j + 1][1], 60)
                    if surname in _SURNAMES or surname.endswith(_SURNAME_SUFFIX) or evidence:
                        spans.append((start, tokens[j + 1][1]))
                        i = j + 2
                        continue
                if after_cue or self.class_after(j) or near(self.context, start, tokens[j][1]):
                    spans.append((start, tokens[j][1]))
                    i = j + 1
                    continue
            elif self.plausible(word):
                folded = _fold_word(word)
                if i > 0 and _fold_word(self.word(i - 1)) in ("herr", "herrn", "frau") and self.adjacent(i - 1) and (
                        near(self.cue_starts, start, end, 60) or near(self.context, start, end, 60)):
                    # "Frau Schmidt, die Mutter von Lukas" — not "Frau Meier legt 5000 Euro an" (a word problem)
                    spans.append((start, end))
                    i += 1
                    continue
                nxt_is_surname = self.adjacent(i) and _fold_word(self.word(i + 1)) in _SURNAMES
                if folded in _SURNAMES and i + 1 < len(tokens) and self.text[end:tokens[i + 1][0]].strip() == "," \
                        and self.first_name(self.word(i + 1)):
                    spans.append((start, tokens[i + 1][1]))  # "Müller, Max" (class lists)
                    i += 2
                    continue
                if after_cue and (self.class_after(i) or nxt_is_surname or near(self.context, start, end, 60)):
                    stop = tokens[i + 1][1] if nxt_is_surname else end
                    spans.append((start, stop))
            i += 1
        spans += self.initials()
        # Every further mention of a found name ("Max Müller … Max braucht …") goes too.
        parts = {p for s, e in spans for p in _TOKEN.findall(self.text[s:e])
                 if _fold_word(p) not in _NAME_STOP and _fold_word(p) not in _FAMOUS_SURNAMES}
        if parts:
            spans += [(s, e) for idx, (s, e, w) in enumerate(tokens) if w in parts and not self.famous_at(idx)]
        return [(s, m.end() if (m := _AFTER_INITIAL.match(self.text, e)) else e) for s, e in spans]
