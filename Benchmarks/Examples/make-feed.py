#!/usr/bin/env python3
"""Writes feed-old.json and feed-new.json, the example lists of `ripple-bench --lists`.

A feed of 30,000 posts keyed by server ids, refreshed: 600 new posts at the top, 300 posts
deleted and 300 moved at random places, 1,500 posts whose like count changed, and 3 posts that
the server sent twice (a repeated identifier). Seeded: every run writes the same files.

    python3 Benchmarks/Examples/make-feed.py
"""
import json
import os
import random

ROWS = 30_000
rng = random.Random(0x5EED)
here = os.path.dirname(os.path.abspath(__file__))


def server_id():
    return "p_" + "".join(rng.choice("0123456789abcdef") for _ in range(12))


old = [[server_id(), {"likes": rng.randrange(500), "rev": 1}] for _ in range(ROWS)]

new = [[row[0], dict(row[1])] for row in old]
for index in sorted(rng.sample(range(len(new)), 300), reverse=True):  # deleted
    del new[index]
moved = [new.pop(index) for index in sorted(rng.sample(range(len(new)), 300), reverse=True)]
for row in moved:  # re-ranked
    new.insert(rng.randrange(len(new) + 1), row)
for index in rng.sample(range(len(new)), 1_500):  # more likes
    new[index][1] = {"likes": new[index][1]["likes"] + 1 + rng.randrange(20), "rev": 2}
new[0:0] = [[server_id(), {"likes": 0, "rev": 1}] for _ in range(600)]  # fresh posts on top
for index in rng.sample(range(1_000, len(new)), 3):  # sent twice
    new.insert(index + 1 + rng.randrange(50), [new[index][0], dict(new[index][1])])


def write(name, rows):
    with open(os.path.join(here, name), "w") as file:
        file.write("[\n" + ",\n".join(json.dumps(row, separators=(",", ":")) for row in rows) + "\n]\n")


write("feed-old.json", old)
write("feed-new.json", new)
