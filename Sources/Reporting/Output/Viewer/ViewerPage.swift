import Foundation
import JSON

/// The replay viewer: one self-contained HTML page (inline style, inline hand-written script,
/// the data as one JSON document) that plays a replay back on a map, a lane per event source
/// and the event list. Nothing is fetched; links go only to the files beside it.
///
/// The page's elements that tests and readers rely on are listed in `docs/REPORTS.md`, "The
/// replay viewer".
enum ViewerPage {
  /// The page, titled `title`, whose data (``ViewerData``) `writeData` writes as JSON: the
  /// page's bytes, made in one buffer.
  static func page(
    title: String, description: String, start: Double, end: Double,
    writeData: (inout JSONBuffer) -> Void
  ) -> Data {
    let name = Markup.escape(title)
    let head = """
      <!DOCTYPE html>
      <html lang="en">
      <head>
      <meta charset="utf-8"/>
      <meta name="viewport" content="width=device-width, initial-scale=1"/>
      <title>\(name): replay</title>
      <link rel="icon" href="data:,"/>
      <style>
      \(style)
      </style>
      </head>
      <body>
      <header>
      <h1>\(name)</h1>
      <p class="description">\(Markup.escape(description))</p>
      <p class="files">Files: <a href="report.md">report.md</a>, <a href="report.json">report.json</a>, \
      <a href="events.jsonl">events.jsonl</a>, <a href="result.json">result.json</a>, \
      <a href="map.svg">map.svg</a>. <span id="summary"></span></p>
      <p id="font-notice" class="notice" hidden></p>
      <p id="cap-notice" class="notice" hidden></p>
      </header>
      <div id="controls">
      <button id="play" type="button" aria-pressed="false">Play</button>
      <label>speed <select id="speed">
      <option value="auto" selected>whole replay in 30 s</option>
      <option value="1">×1</option><option value="10">×10</option>
      <option value="60">×60</option><option value="600">×600</option>
      </select></label>
      <input id="scrub" type="range" min="\(JSONText.number(start))" max="\(JSONText.number(end))" \
      step="any" value="\(JSONText.number(start))" aria-label="time"/>
      <span id="clock">t = 0.0 s</span>
      </div>
      <p id="readout"></p>
      <div id="main">
      <div id="map-box">
      <svg id="map" xmlns="http://www.w3.org/2000/svg" lang="ja" viewBox="0 0 1000 700" role="img" \
      aria-label="map of the replay">
      <g id="g-base"></g><g id="g-areas"></g><g id="g-layers"></g><g id="g-fences"></g>\
      <g id="g-requests"></g><g id="g-track"></g><g id="g-places"></g><g id="g-markers"></g>\
      <g id="g-labels"></g>
      </svg>
      <div id="legend"></div>
      <p class="hint">Wheel to zoom, drag to pan, double-click to reset; space plays or pauses, \
      the arrow keys go to the previous or next event.</p>
      </div>
      <aside>
      <ol id="events" lang="ja"></ol>
      <pre id="event-detail" lang="ja">Click an event in the list or a mark in the lanes to see its log line.</pre>
      </aside>
      </div>
      <div id="timeline"><div id="axis"></div><div id="lanes"></div><div id="fence-lanes"></div>\
      <div id="cursor"></div></div>

      """
    var page = JSONBuffer(capacity: 1 << 18)
    page.append(utf8: head)
    page.append(#"<script type="application/json" id="geosim-data">"#)
    embed(into: &page, writeData)
    page.append("</script>\n<script>\n")
    page.append(utf8: script)
    page.append("\n</script>\n</body>\n</html>\n")
    return page.data()
  }

  /// `data`'s JSON text as ``embed(into:_:)`` writes it.
  static func embedded(_ data: JSONValue) -> String {
    var out = JSONBuffer()
    embed(into: &out) { data.write(to: &$0) }
    return out.withUnsafeBytes { String(decoding: $0, as: UTF8.self) }
  }

  /// Appends the JSON text that `write` writes, made safe inside a `<script>` element: `</`
  /// written as `<\/` and `<!` as `\u003c!`, both still the same JSON.
  ///
  /// - Complexity: one pass over the text (a viewer's data runs to megabytes); the text is
  ///   copied again only when it holds an opening to rewrite.
  static func embed(into out: inout JSONBuffer, _ write: (inout JSONBuffer) -> Void) {
    let start = out.count
    write(&out)
    let rewritten = out.withUnsafeBytes { all -> [UInt8]? in
      let utf8 = UnsafeBufferPointer(rebasing: all[start...])
      let open = UInt8(ascii: "<")
      // The next opening from `offset`, found by the C library's byte search: most data has
      // none, and this pass reads all of it.
      func nextOpening(from offset: Int) -> Int? {
        guard offset < utf8.count, let base = utf8.baseAddress,
          let found = memchr(base + offset, Int32(open), utf8.count - offset)
        else { return nil }
        return UnsafeRawPointer(base).distance(to: UnsafeRawPointer(found))
      }
      guard var opening = nextOpening(from: 0) else { return nil }
      var bytes: [UInt8] = []
      bytes.reserveCapacity(utf8.count + 64)
      // The text up to `copied` is in `bytes`; runs between openings are copied whole.
      var copied = 0
      while true {
        let next = opening + 1
        if next < utf8.count, utf8[next] == UInt8(ascii: "/") {
          bytes += utf8[copied..<opening]
          bytes += [open, UInt8(ascii: "\\")]
          copied = next
        } else if next < utf8.count, utf8[next] == UInt8(ascii: "!") {
          bytes += utf8[copied..<opening]
          bytes += #"\u003c"#.utf8
          copied = next
        }
        guard let found = nextOpening(from: next) else { break }
        opening = found
      }
      bytes += utf8[copied...]
      return bytes
    }
    guard let rewritten else { return }
    out.removeLast(out.count - start)
    rewritten.withUnsafeBufferPointer { out.append(contentsOf: $0) }
  }

  static let style = #"""
    :root { --cjk: "Noto Sans CJK JP", "Noto Sans JP", "IPAGothic", "Hiragino Sans", sans-serif; }
    body { font-family: var(--cjk); margin: 0.6em 1em; color: #222; }
    h1 { font-size: 1.3em; margin: 0.2em 0; }
    header p { margin: 0.2em 0; }
    .description { color: #444; max-width: 80em; }
    .notice { background: #fff4d6; border: 1px solid #e0b84c; padding: 0.3em 0.6em; }
    #controls { display: flex; gap: 0.8em; align-items: center; margin: 0.4em 0; flex-wrap: wrap; }
    #scrub { flex: 1; min-width: 16em; }
    #clock { font-variant-numeric: tabular-nums; min-width: 22em; }
    #readout { margin: 0.2em 0 0.4em; font-size: 13px; font-variant-numeric: tabular-nums; color: #333; }
    #main { display: flex; gap: 0.8em; align-items: flex-start; }
    #map-box { flex: 3; min-width: 0; }
    #map { width: 100%; height: auto; border: 1px solid #bbb; background: #eef4f8; touch-action: none; cursor: grab; }
    aside { flex: 2; min-width: 18em; display: flex; flex-direction: column; gap: 0.4em; }
    #events { position: relative; height: 26em; overflow: auto; margin: 0; padding: 0; list-style: none;
      border: 1px solid #bbb; font: 12px/1.45 ui-monospace, monospace; }
    #events li { padding: 0 0.4em; cursor: pointer; white-space: nowrap; }
    #events li:hover { background: #f0f0f0; }
    #events li.current { background: #ffe9a8; }
    #events li.selected { outline: 2px solid #1f77b4; outline-offset: -2px; }
    #event-detail { margin: 0; min-height: 4em; max-height: 12em; overflow: auto; white-space: pre-wrap;
      word-break: break-all; border: 1px solid #bbb; padding: 0.4em; font: 12px/1.4 ui-monospace, monospace;
      font-family: ui-monospace, monospace, var(--cjk); }
    #timeline { position: relative; margin-top: 0.6em; border: 1px solid #bbb; overflow: hidden; }
    #axis { position: relative; height: 2.6em; margin-left: 9em; border-bottom: 1px solid #ccc; font-size: 11px; }
    #axis .tick { position: absolute; top: 0; border-left: 1px solid #999; padding-left: 2px; height: 100%;
      white-space: nowrap; line-height: 1.2; }
    .lane, .fence-lane { position: relative; height: 1.5em; border-bottom: 1px solid #eee; }
    .fence-lane { background: #fafafa; }
    .fence-lane .seg { position: absolute; top: 0.15em; height: 0.75em; }
    .fence-lane .seg.inside { background: #2ca02c; } .fence-lane .seg.outside { background: #1f77b4; }
    .fence-lane .seg.unknown { background: #bbb; }
    .fence-lane .seg.truth { top: 1em; height: 0.35em; background: #333; }
    .lane .name, .fence-lane .name { position: absolute; left: 0; width: 8.6em; overflow: hidden; text-overflow: ellipsis;
      white-space: nowrap; font-size: 12px; line-height: 1.5em; padding-left: 0.3em; }
    .lane .marks, .fence-lane .marks { position: absolute; left: 9em; right: 0; top: 0; bottom: 0; }
    .lane .event { position: absolute; top: 0.2em; width: 3px; margin-left: -1px; height: 1.1em; cursor: pointer; opacity: 0.85; }
    .lane .event.selected { outline: 2px solid #000; z-index: 2; }
    .shade { position: absolute; top: 0; bottom: 0; pointer-events: none; }
    .shade.offline { background: repeating-linear-gradient(45deg, rgba(214,39,40,0.16) 0 6px, rgba(214,39,40,0.05) 6px 12px); }
    .shade.gnss { background: rgba(90,90,90,0.16); }
    #cursor { position: absolute; top: 0; bottom: 0; width: 2px; background: #d62728; pointer-events: none; }
    #legend { font-size: 12px; display: flex; flex-wrap: wrap; gap: 0.3em 1em; margin-top: 0.3em; }
    #legend span::before { content: ""; display: inline-block; width: 0.9em; height: 0.9em; margin-right: 0.3em;
      vertical-align: -0.1em; background: var(--c); border-radius: 2px; }
    .hint { font-size: 11px; color: #666; margin: 0.2em 0; }
    svg text { font-family: var(--cjk); paint-order: stroke; stroke: #fff; stroke-width: 3px; stroke-linejoin: round; }
    .border { fill: #fbfbf5; stroke: #9a9a8a; stroke-width: 0.8; vector-effect: non-scaling-stroke; }
    .area { fill: rgba(60,60,60,0.18); stroke: #555; stroke-dasharray: 4 3; vector-effect: non-scaling-stroke; }
    .area.urbanCanyon { fill: rgba(150,120,60,0.14); }
    .layer-line { fill: none; stroke: #8c6d31; stroke-width: 2.5; vector-effect: non-scaling-stroke; opacity: 0.75; }
    .layer-fill { fill: rgba(140,109,49,0.12); stroke: #8c6d31; vector-effect: non-scaling-stroke; }
    .fence circle.ring { stroke: #1f77b4; stroke-width: 1.5; vector-effect: non-scaling-stroke; fill: rgba(150,150,150,0.12); }
    .fence[data-state="inside"] circle.ring { fill: rgba(44,160,44,0.22); stroke: #2ca02c; }
    .fence[data-state="outside"] circle.ring { fill: rgba(31,119,180,0.10); }
    .fence.inactive circle.ring { stroke-dasharray: 3 3; opacity: 0.45; }
    .request .shape { fill: rgba(148,103,189,0.10); stroke: #9467bd; stroke-width: 1.5; vector-effect: non-scaling-stroke; }
    .request .meant { fill: none; stroke: #9467bd; stroke-dasharray: 5 4; vector-effect: non-scaling-stroke; }
    .request .dot { fill: #9467bd; stroke: #fff; vector-effect: non-scaling-stroke; }
    .request.anomaly .shape, .request.anomaly .dot { stroke: #d62728; }
    .request.anomaly .dot { fill: #d62728; }
    .request.future { opacity: 0.25; }
    .request { cursor: pointer; }
    .request .diagonal { stroke: #d62728; stroke-width: 1.5; vector-effect: non-scaling-stroke; }
    .result { stroke: #fff; stroke-width: 1; vector-effect: non-scaling-stroke; }
    .result.true { fill: #17becf; } .result.false { fill: #ff7f0e; }
    .missed { fill: none; stroke: #ff7f0e; stroke-width: 2; vector-effect: non-scaling-stroke; }
    .track { fill: none; stroke: #555; stroke-width: 2; vector-effect: non-scaling-stroke; }
    .arrow { fill: #555; }
    .place { fill: #444; }
    #marker-true { fill: none; stroke: #222; stroke-width: 3; vector-effect: non-scaling-stroke; }
    #marker-fix { fill: #ff7f0e; stroke: #fff; stroke-width: 1.5; vector-effect: non-scaling-stroke; }
    #fix-accuracy { fill: rgba(255,127,14,0.12); stroke: #ff7f0e; vector-effect: non-scaling-stroke; }
    #marker-estimate { fill: #d62728; stroke: #fff; stroke-width: 1.5; vector-effect: non-scaling-stroke; }
    #marker-start { fill: #2ca02c; stroke: #fff; stroke-width: 2; vector-effect: non-scaling-stroke; }
    #marker-end { fill: #222; stroke: #fff; stroke-width: 2; vector-effect: non-scaling-stroke; }
    .label { fill: #222; }
    .label.place, .label.station, .label.layer { fill: #444; }
    .label.fence { fill: #1f77b4; } .label.request { fill: #7b4fa6; } .label.marker { font-weight: bold; }
    """#

  static let script = #"""
    (function () {
      'use strict';
      var data = JSON.parse(document.getElementById('geosim-data').textContent);
      var NS = 'http://www.w3.org/2000/svg';
      var svg = document.getElementById('map');
      var W = data.map.width, H = data.map.height;
      var vb = [0, 0, W, H];
      var now = data.start;
      var events = data.events;
      var palette = ['#1f77b4', '#ff7f0e', '#2ca02c', '#d62728', '#9467bd', '#8c564b', '#e377c2',
        '#7f7f7f', '#bcbd22', '#17becf', '#393b79', '#637939', '#8c6d31', '#843c39', '#7b4173'];

      function el(name, attrs, parent) {
        var e = document.createElementNS(NS, name);
        for (var k in attrs) { if (Object.prototype.hasOwnProperty.call(attrs, k)) e.setAttribute(k, attrs[k]); }
        if (parent) parent.appendChild(e);
        return e;
      }
      function g(id) { return document.getElementById(id); }
      function title(node, text) { var t = el('title', {}, node); t.textContent = text; return node; }
      /** The last index i with key(list[i]) <= t, or -1. */
      function lastAtOrBefore(list, t, key) {
        var lo = 0, hi = list.length - 1, found = -1;
        while (lo <= hi) {
          var mid = (lo + hi) >> 1;
          if (key(list[mid]) <= t) { found = mid; lo = mid + 1; } else { hi = mid - 1; }
        }
        return found;
      }
      function degrees(v) { return String(Math.round(v * 1e6) / 1e6); }
      function pad(n) { return (n < 10 ? '0' : '') + n; }
      function clockText(t) {
        var zones = data.zones, z = zones[0];
        for (var i = 0; i < zones.length; i++) { if (zones[i].from <= t) z = zones[i]; }
        if (!z) return '';
        var d = new Date(data.scenario.startEpochMilliseconds + Math.round(t * 1000) + z.offset * 1000);
        return d.getUTCFullYear() + '-' + pad(d.getUTCMonth() + 1) + '-' + pad(d.getUTCDate()) + ' ' +
          pad(d.getUTCHours()) + ':' + pad(d.getUTCMinutes()) + ':' + pad(d.getUTCSeconds()) + ' ' + z.abbreviation;
      }
      function shortClock(t) { var c = clockText(t); return c.slice(11, 19); }

      // Labels: placed after drawing so that they do not collide.
      var labels = [];
      function label(text, x, y, cls, priority, radius) {
        labels.push({ text: text, x: x, y: y, cls: cls, priority: priority, radius: radius || 4, node: null });
      }

      // Base layer, areas, layers.
      if (data.borders) title(el('path', { d: data.borders, 'class': 'border' }, g('g-base')), 'country borders (DCW-GMT, simplified)');
      data.areas.forEach(function (a) {
        title(el('path', { d: a.d, 'class': 'area ' + a.kind, 'fill-rule': 'evenodd' }, g('g-areas')), a.kind + ' area');
      });
      data.layers.forEach(function (l) {
        if (l.fills) title(el('path', { d: l.fills, 'class': 'layer-fill', 'fill-rule': 'evenodd' }, g('g-layers')), l.label);
        if (l.lines) title(el('path', { d: l.lines, 'class': 'layer-line' }, g('g-layers')), l.label);
      });

      // Fences.
      var fenceNodes = data.fences.map(function (f) {
        var node = el('g', { 'class': 'fence', 'data-id': f.id, 'data-state': 'unknown', 'data-true-state': 'outside' }, g('g-fences'));
        title(el('circle', { 'class': 'ring', cx: f.x, cy: f.y, r: Math.max(f.r, 0.5) }, node),
          f.kind + ' ' + f.identifier + ', radius ' + f.radius + ' m');
        label(f.identifier, f.x, f.y - f.r, 'fence', 3, 2);
        return node;
      });

      // Requests, drawn where they were sent.
      var requestNodes = data.requests.map(function (r, index) {
        var node = el('g', { 'class': 'request future' + (r.anomalies.length ? ' anomaly' : ''), 'data-index': index,
          'data-service': r.service }, g('g-requests'));
        var what = r.label + ' at ' + r.t + ' s' + (r.anomalies.length ? ' (' + r.anomalies.join(', ') + ')' : '') +
          (r.note ? ': ' + r.note : '');
        title(node, what);
        if (r.shape === 'circle') {
          el('circle', { 'class': 'shape', cx: r.x, cy: r.y, r: Math.max(r.r, 0.5) }, node);
          el('circle', { 'class': 'dot', cx: r.x, cy: r.y, r: 3 }, node);
          label(r.kind + ' #' + index, r.x, r.y, 'request', 2, 3);
        } else if (r.shape === 'point') {
          el('circle', { 'class': 'dot', cx: r.x, cy: r.y, r: 5 }, node);
          label(r.label, r.x, r.y, 'request', 2, 5);
        } else if (r.shape === 'box') {
          var c = r.corners;
          el('polygon', { 'class': 'shape', points: c.map(function (p) { return p[0] + ',' + p[1]; }).join(' ') }, node);
          if (r.meant) {
            el('rect', { 'class': 'meant', x: r.meant[0], y: r.meant[1], width: Math.max(r.meant[2] - r.meant[0], 0.5),
              height: Math.max(r.meant[3] - r.meant[1], 0.5) }, node);
          }
          el('line', { 'class': 'diagonal', x1: c[0][0], y1: c[0][1], x2: c[2][0], y2: c[2][1] }, node);
          el('circle', { 'class': 'dot', cx: c[0][0], cy: c[0][1], r: 4 }, node);
          el('circle', { 'class': 'dot', cx: c[2][0], cy: c[2][1], r: 4 }, node);
          label('"southwest" as sent (' + degrees(r.sent[0].latitude) + ', ' + degrees(r.sent[0].longitude) + ')', c[0][0], c[0][1], 'request', 2, 4);
          label('"northeast" as sent (' + degrees(r.sent[1].latitude) + ', ' + degrees(r.sent[1].longitude) + ')', c[2][0], c[2][1], 'request', 2, 4);
        }
        r.results.forEach(function (p) {
          title(el('rect', { 'class': 'result ' + (p.true === false ? 'false' : 'true'), x: p.x - 5, y: p.y - 5, width: 10, height: 10 }, node),
            'returned: ' + p.name + (p.true === false ? ' (not a true match)' : ''));
        });
        r.missed.forEach(function (p) {
          title(el('circle', { 'class': 'missed', cx: p.x, cy: p.y, r: 6 }, node), 'missed: ' + p.name);
        });
        return node;
      });

      // The true track, its direction and its ends.
      var tr = data.track;
      var segStarts = [0].concat(tr.breaks);
      segStarts.forEach(function (s, k) {
        var e = k + 1 < segStarts.length ? segStarts[k + 1] : tr.t.length;
        var pts = [];
        for (var i = s; i < e; i++) pts.push(tr.x[i] + ',' + tr.y[i]);
        if (pts.length) title(el('polyline', { 'class': 'track', points: pts.join(' ') }, g('g-track')), 'true track');
      });
      var arrowNodes = tr.arrows.map(function (a) {
        return el('path', { 'class': 'arrow', d: 'M0,0', 'data-x': a.x, 'data-y': a.y, 'data-angle': a.angle }, g('g-track'));
      });

      // Places.
      var placeNodes = data.places.map(function (p) {
        var c = title(el('circle', { 'class': 'place', cx: p.x, cy: p.y, r: 2 }, g('g-places')), p.name);
        label(p.name, p.x, p.y, p.kind, 1, 2);
        return c;
      });

      var markers = g('g-markers');
      var start = el('circle', { id: 'marker-start', r: 6, cx: -100, cy: -100 }, markers);
      var end = el('circle', { id: 'marker-end', r: 6, cx: -100, cy: -100 }, markers);
      if (tr.start) {
        start.setAttribute('cx', tr.start.x); start.setAttribute('cy', tr.start.y);
        end.setAttribute('cx', tr.end.x); end.setAttribute('cy', tr.end.y);
        title(start, 'start of the true track, ' + tr.start.t + ' s');
        title(end, 'end of the true track, ' + tr.end.t + ' s');
        label('start', tr.start.x, tr.start.y, 'marker', 4, 6);
        label('end', tr.end.x, tr.end.y, 'marker', 4, 6);
      } else {
        start.style.display = 'none'; end.style.display = 'none';
      }
      var accuracy = el('circle', { id: 'fix-accuracy', r: 0, cx: 0, cy: 0 }, markers);
      var markerFix = title(el('circle', { id: 'marker-fix', r: 5, cx: 0, cy: 0 }, markers), 'the latest fix the app received');
      var markerEstimate = title(el('circle', { id: 'marker-estimate', r: 5, cx: 0, cy: 0 }, markers),
        'the region engine\'s latest estimate');
      var markerTrue = title(el('circle', { id: 'marker-true', r: 6, cx: 0, cy: 0 }, markers), 'true position');

      // Legend.
      var legend = g('legend');
      [['#222', 'true position'], ['#555', 'true track'], ['#ff7f0e', 'fix (accuracy circle)'],
        ['#d62728', 'region engine estimate'], ['#2ca02c', 'fence: phone believes inside'],
        ['#1f77b4', 'fence: outside'], ['#aaa', 'fence: unknown'], ['#9467bd', 'request as sent'],
        ['#17becf', 'returned, true'], ['#ff7f0e', 'missed or not true'], ['#777', 'GNSS outage area'],
        ['#d62728', 'offline (lanes)'], ['#9a9a8a', 'country borders (DCW-GMT)']].concat(
        data.layers.map(function (l) { return ['#8c6d31', l.label]; })).forEach(function (item) {
        var s = document.createElement('span');
        s.style.setProperty('--c', item[0]);
        s.textContent = item[1];
        legend.appendChild(s);
      });

      // Lanes, the time axis and the shaded windows.
      var span = Math.max(data.end - data.start, 1e-9);
      function pct(t) { return ((t - data.start) / span * 100) + '%'; }
      var lanes = g('lanes');
      var laneMarks = data.sources.map(function (source, s) {
        var lane = document.createElement('div');
        lane.className = 'lane';
        lane.setAttribute('data-source', source);
        var name = document.createElement('span');
        name.className = 'name';
        name.textContent = source;
        lane.appendChild(name);
        var marks = document.createElement('div');
        marks.className = 'marks';
        lane.appendChild(marks);
        lanes.appendChild(lane);
        return marks;
      });
      var markNodes = [];
      var colourOf = function (s) { return palette[s % palette.length]; };
      events.forEach(function (e, i) {
        var m = document.createElement('span');
        m.className = 'event';
        m.setAttribute('data-index', i);
        m.style.left = pct(e[0]);
        m.style.background = colourOf(e[1]);
        m.title = e[0] + ' s ' + data.sources[e[1]] + '.' + e[2];
        laneMarks[e[1]].appendChild(m);
        markNodes.push(m);
      });
      // A lane per fence: what the phone believed (inside, outside, unknown) over the fence's
      // active span, and under it, thin, when the true track was inside.
      var fenceLanes = g('fence-lanes');
      data.fences.forEach(function (f) {
        var lane = document.createElement('div');
        lane.className = 'fence-lane';
        lane.setAttribute('data-id', f.id);
        var name = document.createElement('span');
        name.className = 'name';
        name.textContent = 'fence ' + f.id;
        name.title = f.kind + ' ' + f.identifier + ': believed state (bar), truly inside (thin)';
        lane.appendChild(name);
        var marks = document.createElement('div');
        marks.className = 'marks';
        lane.appendChild(marks);
        function seg(cls, from, to, text) {
          if (!(to > from)) return;
          var d = document.createElement('span');
          d.className = 'seg ' + cls;
          d.style.left = pct(from);
          d.style.width = ((to - from) / span * 100) + '%';
          d.title = text + ', ' + from + '–' + to + ' s';
          marks.appendChild(d);
        }
        var until = f.until === null ? data.end : f.until;
        f.states.forEach(function (s, k) {
          var next = k + 1 < f.states.length ? Math.min(f.states[k + 1][0], until) : until;
          seg(s[1], Math.max(s[0], f.from), next, 'phone believes ' + s[1]);
        });
        f.trueStates.forEach(function (s, k) {
          var next = k + 1 < f.trueStates.length ? f.trueStates[k + 1][0] : data.end;
          if (s[1]) seg('truth', s[0], next, 'truly inside');
        });
        fenceLanes.appendChild(lane);
      });
      function shade(cls, from, to, text) {
        var d = document.createElement('div');
        d.className = 'shade ' + cls;
        d.style.left = 'calc(9em + (100% - 9em) * ' + ((from - data.start) / span) + ')';
        d.style.width = 'calc((100% - 9em) * ' + (Math.max(to - from, 0) / span) + ')';
        d.title = text;
        g('timeline').appendChild(d);
      }
      data.offline.forEach(function (w) { shade('offline', w[0], w[1], 'offline ' + w[0] + '–' + w[1] + ' s'); });
      data.environment.forEach(function (w) { shade('gnss', w[0], w[1], w[2] + ' ' + w[0] + '–' + w[1] + ' s'); });
      var axis = g('axis');
      (function ticks() {
        var raw = span / 8, mag = Math.pow(10, Math.floor(Math.log(raw) / Math.LN10));
        var step = [1, 2, 5, 10].map(function (f) { return f * mag; }).filter(function (v) { return v >= raw; })[0] || mag * 10;
        for (var t = Math.ceil(data.start / step) * step; t <= data.end + 1e-9; t += step) {
          var d = document.createElement('div');
          d.className = 'tick';
          d.style.left = pct(t);
          d.textContent = (Math.round(t * 1000) / 1000) + ' s';
          d.appendChild(document.createElement('br'));
          d.appendChild(document.createTextNode(shortClock(t)));
          axis.appendChild(d);
        }
      })();
      var cursor = g('cursor');

      // The event list.
      var list = g('events');
      var fragment = document.createDocumentFragment();
      var items = events.map(function (e, i) {
        var li = document.createElement('li');
        li.setAttribute('data-index', i);
        li.setAttribute('data-t', e[0]);
        li.textContent = e[0].toFixed(3) + ' s ' + shortClock(e[0]) + '  ' + data.sources[e[1]] + '.' + e[2];
        li.style.borderLeft = '4px solid ' + colourOf(e[1]);
        fragment.appendChild(li);
        return li;
      });
      list.appendChild(fragment);
      var detail = g('event-detail');
      var selected = -1;
      function select(i) {
        if (selected >= 0) { items[selected].classList.remove('selected'); markNodes[selected].classList.remove('selected'); }
        selected = i;
        items[i].classList.add('selected');
        markNodes[i].classList.add('selected');
        detail.textContent = events[i][3];
        seek(events[i][0]);
      }
      list.addEventListener('click', function (ev) {
        var li = ev.target.closest ? ev.target.closest('li[data-index]') : null;
        if (li) select(Number(li.getAttribute('data-index')));
      });
      // A request on the map opens its log entry.
      g('g-requests').addEventListener('click', function (ev) {
        var node = ev.target.closest ? ev.target.closest('.request[data-index]') : null;
        if (!node) return;
        var i = data.requests[Number(node.getAttribute('data-index'))].i;
        if (i < events.length) select(i);
      });
      lanes.addEventListener('click', function (ev) {
        var m = ev.target.closest ? ev.target.closest('.event[data-index]') : null;
        if (m) select(Number(m.getAttribute('data-index')));
      });
      var cap = g('cap-notice');
      if (data.eventsEmbedded < data.eventCount) {
        cap.hidden = false;
        cap.textContent = 'This page holds the first ' + data.eventsEmbedded + ' of ' + data.eventCount +
          ' events; events.jsonl has them all.';
      }
      g('summary').textContent = data.scenario.app + (data.scenario.variant ? ' (' + data.scenario.variant + ')' : '') +
        ', seed ' + data.scenario.seed + ', verdict ' + data.scenario.verdict + ', ' + data.eventCount + ' events, time zone ' +
        data.scenario.timeZone + '.';

      // Labels that do not collide, re-laid out at every zoom.
      labels.sort(function (a, b) { return b.priority - a.priority; });
      var labelLayer = g('g-labels');
      labels.forEach(function (l) {
        l.node = el('text', { 'class': 'label ' + l.cls }, labelLayer);
        l.node.textContent = l.text;
      });
      function textWidth(text, size) {
        var w = 0;
        for (var i = 0; i < text.length; i++) { w += text.charCodeAt(i) > 0x2e80 ? size : size * 0.58; }
        return w;
      }
      function unitsPerPixel() {
        var rect = svg.getBoundingClientRect();
        return rect.width > 0 ? vb[2] / rect.width : vb[2] / W;
      }
      function layout() {
        var k = unitsPerPixel();
        var size = 11 * k, placed = [];
        // The labelled points themselves are in the way of every other label.
        var points = labels.map(function (l) {
          var r = (l.radius + 1) * k;
          return [l.x - r, l.y - r, l.x + r, l.y + r, l];
        });
        var view = [vb[0], vb[1], vb[0] + vb[2], vb[1] + vb[3]];
        var shown = [];
        labels.forEach(function (l) {
          var w = textWidth(l.text, size), h = size * 1.2, gap = (l.radius + 3) * k;
          // The same text at (nearly) the same place once: two fences of one alarm.
          var twin = shown.some(function (o) { return o.text === l.text && Math.abs(o.x - l.x) + Math.abs(o.y - l.y) < 20 * k; });
          if (twin) { l.node.style.display = 'none'; return; }
          var candidates = [[gap, h * 0.35, 'start'], [-gap, h * 0.35, 'end'], [0, -gap - h * 0.2, 'middle'],
            [0, gap + h * 0.8, 'middle'], [gap, -gap, 'start'], [-gap, -gap, 'end'], [gap, gap + h * 0.6, 'start'],
            [-gap, gap + h * 0.6, 'end'], [2.5 * gap, h * 0.35, 'start'], [-2.5 * gap, h * 0.35, 'end']];
          var chosen = null;
          for (var c = 0; c < candidates.length && !chosen; c++) {
            var dx = candidates[c][0], dy = candidates[c][1], anchor = candidates[c][2];
            var x0 = anchor === 'start' ? l.x + dx : anchor === 'end' ? l.x + dx - w : l.x - w / 2;
            var box = [x0, l.y + dy - h * 0.85, x0 + w, l.y + dy + h * 0.15];
            if (box[2] < view[0] || box[0] > view[2] || box[3] < view[1] || box[1] > view[3]) continue;
            var clear = function (p) { return box[2] < p[0] || box[0] > p[2] || box[3] < p[1] || box[1] > p[3]; };
            var free = placed.every(clear) && points.every(function (p) { return p[4] === l || clear(p); });
            if (free) chosen = { x: l.x + dx, y: l.y + dy, anchor: anchor, box: box };
          }
          if (chosen) {
            placed.push(chosen.box);
            shown.push(l);
            l.node.setAttribute('x', chosen.x.toFixed(2));
            l.node.setAttribute('y', chosen.y.toFixed(2));
            l.node.setAttribute('text-anchor', chosen.anchor);
            l.node.setAttribute('font-size', size.toFixed(3));
            l.node.style.strokeWidth = (3 * k).toFixed(3) + 'px';
            l.node.style.display = '';
          } else {
            l.node.style.display = 'none';
          }
        });
        // Markers keep their size on screen.
        [[markerTrue, 8], [markerFix, 5], [markerEstimate, 5], [start, 6], [end, 6]].forEach(function (m) {
          m[0].setAttribute('r', (m[1] * k).toFixed(3));
        });
        placeNodes.forEach(function (n) { n.setAttribute('r', (2.5 * k).toFixed(3)); });
        requestNodes.forEach(function (n) {
          Array.prototype.forEach.call(n.querySelectorAll('.dot'), function (d) { d.setAttribute('r', (4 * k).toFixed(3)); });
        });
        arrowNodes.forEach(function (a) {
          var s = 6 * k;
          a.setAttribute('d', 'M' + (-s) + ',' + (-s * 0.6) + 'L' + s + ',0L' + (-s) + ',' + (s * 0.6) + 'Z');
          a.setAttribute('transform', 'translate(' + a.getAttribute('data-x') + ',' + a.getAttribute('data-y') +
            ') rotate(' + a.getAttribute('data-angle') + ')');
        });
      }

      // Time.
      function show(node, x, y) {
        node.setAttribute('cx', x);
        node.setAttribute('cy', y);
        node.style.display = '';
      }
      function hide(node) { node.style.display = 'none'; }
      function stateAt(list, t) {
        var i = lastAtOrBefore(list, t, function (s) { return s[0]; });
        return i < 0 ? null : list[i];
      }
      var current = -1;
      var scrub = g('scrub'), clock = g('clock'), readout = g('readout');
      /** The haversine distance in metres on a 6,371 km sphere (for reading, not judging). */
      function distance(a, b) {
        var r = Math.PI / 180, dLat = (b[0] - a[0]) * r, dLon = (b[1] - a[1]) * r;
        var h = Math.pow(Math.sin(dLat / 2), 2) + Math.cos(a[0] * r) * Math.cos(b[0] * r) * Math.pow(Math.sin(dLon / 2), 2);
        return 2 * 6371000 * Math.asin(Math.min(1, Math.sqrt(h)));
      }
      function metres(m) { return m >= 10000 ? (m / 1000).toFixed(0) + ' km' : m >= 1000 ? (m / 1000).toFixed(1) + ' km' : m.toFixed(0) + ' m'; }
      function update() {
        var t = now;
        scrub.value = String(t);
        clock.textContent = 't = ' + t.toFixed(1) + ' s · ' + clockText(t);
        cursor.style.left = 'calc(9em + (100% - 9em) * ' + ((t - data.start) / span) + ')';
        // True position, between samples on the straight line; absent before the track and
        // in its breaks.
        var i = lastAtOrBefore(tr.t, t, function (v) { return v; });
        var truth = null, parts = [];
        if (i < 0) { hide(markerTrue); } else {
          var x = tr.x[i], y = tr.y[i], la = tr.latitude[i], lo = tr.longitude[i];
          if (i + 1 < tr.t.length && tr.breaks.indexOf(i + 1) < 0 && tr.t[i + 1] > tr.t[i]) {
            var f = Math.min(1, (t - tr.t[i]) / (tr.t[i + 1] - tr.t[i]));
            x = x + (tr.x[i + 1] - x) * f; y = y + (tr.y[i + 1] - y) * f;
            la = la + (tr.latitude[i + 1] - la) * f; lo = lo + (tr.longitude[i + 1] - lo) * f;
          }
          show(markerTrue, x, y);
          truth = [la, lo];
          parts.push('true position ' + degrees(la) + ', ' + degrees(lo));
        }
        var fi = lastAtOrBefore(data.fixes, t, function (f) { return f.t; });
        if (fi < 0) { hide(markerFix); hide(accuracy); } else {
          var fx = data.fixes[fi];
          show(markerFix, fx.x, fx.y);
          show(accuracy, fx.x, fx.y);
          accuracy.setAttribute('r', Math.max(fx.r, 0));
        }
        var ei = lastAtOrBefore(data.estimates, t, function (e) { return e.t; });
        if (ei < 0) { hide(markerEstimate); } else { show(markerEstimate, data.estimates[ei].x, data.estimates[ei].y); }
        function off(p) { return truth ? ', ' + metres(distance(truth, [p.latitude, p.longitude])) + ' from the truth' : ''; }
        if (fi >= 0) {
          var lf = data.fixes[fi];
          parts.push('fix ' + (t - lf.t).toFixed(1) + ' s old, ' + (lf.accuracy < 0 ? 'invalid (accuracy ' + lf.accuracy + ')' :
            '±' + metres(lf.accuracy)) + off(lf));
        } else { parts.push('no fix yet'); }
        if (ei >= 0) {
          var le = data.estimates[ei];
          parts.push('region engine estimate of ' + le.t.toFixed(1) + ' s' + off(le));
        }
        readout.textContent = parts.join(' · ');
        data.fences.forEach(function (f, k) {
          var active = t >= f.from && (f.until === null || t <= f.until);
          var s = active ? stateAt(f.states, t) : null;
          var truth = stateAt(f.trueStates, t);
          fenceNodes[k].setAttribute('data-state', s ? s[1] : 'unknown');
          fenceNodes[k].setAttribute('data-true-state', truth && truth[1] ? 'inside' : 'outside');
          fenceNodes[k].classList.toggle('inactive', !active);
        });
        data.requests.forEach(function (r, k) { requestNodes[k].classList.toggle('future', r.t > t); });
        var c = lastAtOrBefore(events, t, function (e) { return e[0]; });
        if (c !== current) {
          if (current >= 0) items[current].classList.remove('current');
          current = c;
          if (c >= 0) {
            var li = items[c];
            li.classList.add('current');
            if (li.offsetTop < list.scrollTop || li.offsetTop + li.offsetHeight > list.scrollTop + list.clientHeight) {
              list.scrollTop = Math.max(0, li.offsetTop - list.clientHeight / 2);
            }
          }
        }
      }
      function seek(t) {
        var v = Number(t);
        if (!isFinite(v)) return;
        now = Math.min(Math.max(v, data.start), data.end);
        update();
      }
      scrub.addEventListener('input', function () { seek(scrub.value); });

      // Playing.
      var play = g('play'), speed = g('speed');
      var playing = false, last = 0;
      function rate() { return speed.value === 'auto' ? span / 30 : Number(speed.value); }
      function frame(ts) {
        if (!playing) return;
        var dt = last ? (ts - last) / 1000 : 0;
        last = ts;
        seek(now + dt * rate());
        if (now >= data.end) { setPlaying(false); return; }
        window.requestAnimationFrame(frame);
      }
      function setPlaying(on) {
        playing = on;
        play.textContent = on ? 'Pause' : 'Play';
        play.setAttribute('aria-pressed', on ? 'true' : 'false');
        if (on) {
          if (now >= data.end) seek(data.start);
          last = 0;
          window.requestAnimationFrame(frame);
        }
      }
      play.addEventListener('click', function () { setPlaying(!playing); });

      // Zoom and pan.
      function applyView() { svg.setAttribute('viewBox', vb.map(function (v) { return v.toFixed(3); }).join(' ')); layout(); }
      function toView(ev) {
        var rect = svg.getBoundingClientRect();
        var s = Math.max(vb[2] / rect.width, vb[3] / rect.height);
        var ox = (rect.width - vb[2] / s) / 2, oy = (rect.height - vb[3] / s) / 2;
        return [vb[0] + (ev.clientX - rect.left - ox) * s, vb[1] + (ev.clientY - rect.top - oy) * s, s];
      }
      svg.addEventListener('wheel', function (ev) {
        ev.preventDefault();
        var p = toView(ev), f = ev.deltaY < 0 ? 1 / 1.25 : 1.25;
        var w = Math.min(Math.max(vb[2] * f, W / 5000), W * 4), h = w * H / W;
        vb = [p[0] - (p[0] - vb[0]) * w / vb[2], p[1] - (p[1] - vb[1]) * h / vb[3], w, h];
        applyView();
      }, { passive: false });
      // A drag pans once it has moved a few pixels, so that a click still reaches what it is on.
      var drag = null;
      svg.addEventListener('pointerdown', function (ev) {
        drag = { x: ev.clientX, y: ev.clientY, vb: vb.slice(), s: toView(ev)[2], id: ev.pointerId, moving: false };
      });
      svg.addEventListener('pointermove', function (ev) {
        if (!drag) return;
        if (!drag.moving) {
          if (Math.abs(ev.clientX - drag.x) + Math.abs(ev.clientY - drag.y) < 4) return;
          drag.moving = true;
          if (svg.setPointerCapture) svg.setPointerCapture(drag.id);
        }
        vb = [drag.vb[0] - (ev.clientX - drag.x) * drag.s, drag.vb[1] - (ev.clientY - drag.y) * drag.s, vb[2], vb[3]];
        svg.setAttribute('viewBox', vb.map(function (v) { return v.toFixed(3); }).join(' '));
      });
      function endDrag() { if (drag) { var moved = drag.moving; drag = null; if (moved) layout(); } }
      svg.addEventListener('pointerup', endDrag);
      svg.addEventListener('pointercancel', endDrag);
      svg.addEventListener('dblclick', function () { vb = [0, 0, W, H]; applyView(); });
      window.addEventListener('resize', layout);

      // Keys: space plays or pauses, the arrows go to the previous or next event.
      document.addEventListener('keydown', function (ev) {
        var tag = ev.target && ev.target.tagName;
        if (tag === 'INPUT' || tag === 'SELECT' || tag === 'BUTTON' || tag === 'TEXTAREA') return;
        if (ev.key === ' ') { ev.preventDefault(); setPlaying(!playing); }
        if (ev.key === 'ArrowRight' || ev.key === 'ArrowLeft') {
          ev.preventDefault();
          var c = lastAtOrBefore(events, now, function (e) { return e[0]; });
          var i = ev.key === 'ArrowRight' ? c + 1 : c;
          while (ev.key === 'ArrowLeft' && i >= 0 && events[i][0] >= now) i--;
          if (i >= 0 && i < events.length) seek(events[i][0]);
        }
      });

      // Japanese text needs a CJK font: when the data holds some, draw a sample of it and the
      // same number of unassigned code points (drawn as the missing-glyph box); identical pixels
      // mean no installed font has the glyphs, and the notice names the fonts the page asks for.
      (function fonts() {
        var notice = g('font-notice');
        if (!data.cjkSample) return;
        var families = ['Noto Sans CJK JP', 'Noto Sans JP', 'IPAGothic', 'Hiragino Sans'];
        var stack = families.map(function (f) { return '"' + f + '"'; }).join(', ') + ', sans-serif';
        var canvas = document.createElement('canvas');
        canvas.width = 400; canvas.height = 48;
        var ctx = canvas.getContext('2d', { willReadFrequently: true });
        if (!ctx) return;
        var sample = data.cjkSample.slice(0, 8);
        var missing = '';
        for (var i = 0; i < sample.length; i++) missing += '\u0378';
        function pixels(text, font) {
          ctx.clearRect(0, 0, canvas.width, canvas.height);
          ctx.font = '32px ' + font;
          ctx.fillStyle = '#000';
          ctx.textBaseline = 'top';
          ctx.fillText(text, 2, 4);
          return Array.prototype.join.call(ctx.getImageData(0, 0, canvas.width, canvas.height).data, '');
        }
        var rendered = pixels(sample, stack) !== pixels(missing, stack);
        if (!rendered) {
          notice.hidden = false;
          notice.textContent = 'Japanese text in this replay (' + sample + ') cannot be shown: no installed font has ' +
            'its characters. Missing font: ' + families[0] + ' (or any of ' + families.slice(1).join(', ') +
            '); on Debian, install fonts-noto-cjk.';
        }
      })();

      var hash = /[#&]t=([0-9.]+)/.exec(window.location.hash);

      layout();
      if (hash) { now = Math.min(Math.max(Number(hash[1]), data.start), data.end); }
      update();
      window.geosimViewer = {
        seek: seek,
        time: function () { return now; },
        start: data.start,
        end: data.end,
        eventCount: events.length
      };
      document.documentElement.dataset.viewerReady = 'true';
    })();
    """#
}
