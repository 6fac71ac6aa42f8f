#!/usr/bin/env python3
"""Rebuilds the three-word-address word lists in Sources/Cloud/Resources/languages.

Inputs (Debian packages, installed with `apt-get install wamerican wamerican-large wamerican-huge mecab-ipadic`):
  /usr/share/dict/american-english        SCOWL size 50 (wamerican)
  /usr/share/dict/american-english-large  SCOWL size 70 (wamerican-large)
  /usr/share/dict/american-english-huge   SCOWL size 80 (wamerican-huge)
  /usr/share/mecab/dic/ipadic/Noun.csv     IPAdic general nouns, EUC-JP (mecab-ipadic)
and the blocklists beside this script. The output is deterministic: the same inputs give
byte-identical files. See Sources/Cloud/Resources/languages/README.md for the filters.
"""
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "..", "Sources", "Cloud", "Resources", "languages")

ENGLISH_SOURCES = [
    "/usr/share/dict/american-english",
    "/usr/share/dict/american-english-large",
    "/usr/share/dict/american-english-huge",
]
IPADIC_NOUNS = "/usr/share/mecab/dic/ipadic/Noun.csv"


def read_blocklist(name):
    path = os.path.join(HERE, name)
    exact, stems = set(), []
    with open(path, encoding="utf-8") as f:
        for line in f:
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            if line.endswith("*"):
                stems.append(line[:-1])
            else:
                exact.add(line)
    return exact, stems


def blocked(word, exact, stems):
    return word in exact or any(stem in word for stem in stems)


VOWEL_GROUPS = [
    ("eigh", "a"), ("augh", "o"), ("ough", "o"),
    ("ee", "i"), ("ea", "i"), ("ie", "i"), ("ei", "i"), ("ey", "i"),
    ("ai", "a"), ("ay", "a"), ("ae", "a"),
    ("oo", "u"), ("ou", "u"), ("ue", "u"), ("ew", "u"), ("ui", "u"),
    ("oa", "o"), ("ow", "o"), ("oe", "o"), ("au", "o"), ("aw", "o"),
]
CONSONANT_RULES = [
    ("tch", "ch"), ("dge", "j"), ("ph", "f"), ("gh", ""), ("ck", "k"), ("wh", "w"),
    ("wr", "r"), ("kn", "n"), ("gn", "n"), ("mb", "m"), ("sc", "s"),
]


def phonetic_key(word):
    """A simple sound-alike key: spelling variants that usually sound the same collapse."""
    w = word
    if len(w) > 3 and w.endswith("e") and w[-2] not in "aeiou":
        w = w[:-1]  # silent final e: sale -> sal
    for a, b in CONSONANT_RULES:
        w = w.replace(a, b)
    for a, b in VOWEL_GROUPS:
        w = w.replace(a, b)
    w = re.sub(r"c(?=[eiy])", "s", w)
    w = w.replace("c", "k").replace("q", "k").replace("x", "ks").replace("z", "s")
    w = w.replace("y", "i")
    w = re.sub(r"(.)\1+", r"\1", w)  # doubled letters
    return w


def build_english():
    rank = {}
    for level, path in enumerate(ENGLISH_SOURCES):
        with open(path, encoding="utf-8") as f:
            for line in f:
                word = line.strip()
                if word not in rank:
                    rank[word] = level
    exact, stems = read_blocklist("blocklist-en.txt")
    candidates = [
        w for w in rank
        if re.fullmatch(r"[a-z]{4,10}", w) and not blocked(w, exact, stems)
    ]
    # Plurals and possessives of kept words read as one-word-off look-alikes: drop an "s" form
    # when its stem is present.
    present = set(candidates)
    candidates = [w for w in candidates if not (w.endswith("s") and w[:-1] in present)]
    # Homophones: keep the most common member (lowest SCOWL level, then alphabetical).
    candidates.sort(key=lambda w: (rank[w], w))
    seen, kept = set(), []
    for w in candidates:
        key = phonetic_key(w)
        if key in seen:
            continue
        seen.add(key)
        kept.append(w)
    return sorted(kept)


def katakana_to_hiragana(text):
    return "".join(chr(ord(c) - 0x60) if 0x30A1 <= ord(c) <= 0x30F6 else c for c in text)


SMALL = set("ぁぃぅぇぉっゃゅょゎゕゖ")


def build_japanese():
    exact, stems = read_blocklist("blocklist-ja.txt")
    readings = set()
    with open(IPADIC_NOUNS, encoding="euc_jp") as f:
        for line in f:
            fields = line.rstrip("\n").split(",")
            if len(fields) < 12 or fields[5] != "一般":
                continue
            reading = katakana_to_hiragana(fields[11])
            if not all(0x3041 <= ord(c) <= 0x3093 for c in reading):
                continue
            if not 3 <= len(reading) <= 6:
                continue
            if reading[0] in SMALL or reading[0] == "ん":
                continue
            if blocked(reading, exact, stems):
                continue
            readings.add(reading)
    return sorted(readings)


def write(name, words):
    path = os.path.join(OUT, name)
    with open(path, "w", encoding="utf-8", newline="\n") as f:
        for w in words:
            f.write(w + "\n")
    print(f"{name}: {len(words)} words", file=sys.stderr)


if __name__ == "__main__":
    write("en.txt", build_english())
    write("ja.txt", build_japanese())
