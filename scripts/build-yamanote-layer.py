#!/usr/bin/env python3
"""Writes the replay viewer's Yamanote Line layer from the station dataset.

The layer is the loop of straight lines between consecutive stations of
Scenarios/station-finder/datasets/yamanote-stations.json, in its loop order (JY01 Tokyo, JY02
Kanda, ..., JY30 Yurakucho, back to Tokyo), and each station as a named point: a coarse stand-in for the line, not its track, which
can lie a few hundred metres off a chord. Scenarios name it under "report": {"layers": [...]}, so
that a reader of the viewer can tell where a train is. Run from the repository's root:

    python3 scripts/build-yamanote-layer.py

It writes the same bytes into each scenario folder that uses it.
"""
import json
import pathlib

root = pathlib.Path(__file__).resolve().parent.parent
stations = json.loads((root / "Scenarios/station-finder/datasets/yamanote-stations.json").read_text())
stations.sort(key=lambda s: s["code"])
loop = [[s["longitude"], s["latitude"]] for s in stations] + [[stations[0]["longitude"], stations[0]["latitude"]]]
feature = {
    "type": "Feature",
    "properties": {
        "name": "JR山手線",
        "note": "straight lines between consecutive stations of yamanote-stations.json, not the track",
    },
    "geometry": {"type": "LineString", "coordinates": loop},
}
coordinates = ",\n".join(f"      [{lon}, {lat}]" for lon, lat in loop)
text = (
    '{"type": "FeatureCollection", "features": [\n'
    '  {"type": "Feature",\n'
    f'   "properties": {json.dumps(feature["properties"], ensure_ascii=False)},\n'
    '   "geometry": {"type": "LineString", "coordinates": [\n'
    f"{coordinates}\n"
    "   ]}}" + "".join(
        ',\n  {"type": "Feature", "properties": {"name": %s, "code": "%s"}, '
        '"geometry": {"type": "Point", "coordinates": [%s, %s]}}'
        % (json.dumps(s["name"], ensure_ascii=False), s["code"], s["longitude"], s["latitude"])
        for s in stations
    ) + "\n"
    "]}\n"
)
for folder in ["Scenarios/station-finder", "Scenarios/arrival-alarm"]:
    (root / folder / "yamanote-line.geojson").write_text(text, encoding="utf-8")
