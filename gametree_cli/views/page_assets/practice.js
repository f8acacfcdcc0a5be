// gametree's practice mode: the student fills in the inner nodes and marks the cut edges; "Check" grades
// each entry against the answer key Python wrote from the same search record, and "Download answers"
// saves them as an answer file (CONTRACT.md section 4) that `gametree check` grades.
"use strict";
window.gametreePractice = function (data, view) {
  const key = data.practice, $ = (id) => document.getElementById(id), W = data.words, fill = view.fill;
  const size = data.ids.length, marked = new Set(), inputs = [];
  const SYMBOL = { max: "▲", min: "▼", chance: "○", player: "◆" };
  let built = false;

  // -- numbers as a course writes them: 3, -2, 7/3, 0.25, ∞, (1, 2, 6); compared exactly (BigInt fractions)
  function parseNumber(text) {
    const t = text.replace(/−/g, "-").replace(/\s+/g, "").toLowerCase();
    if (/^\+?(inf|infinity|∞)$/.test(t)) return { inf: 1 };
    if (/^-(inf|infinity|∞)$/.test(t)) return { inf: -1 };
    let match = /^([+-]?\d+)\/(\d+)$/.exec(t);
    if (match && BigInt(match[2]) !== 0n) return { n: BigInt(match[1]), d: BigInt(match[2]) };
    match = /^([+-]?)(\d*)(?:\.(\d*))?(?:e([+-]?\d+))?$/.exec(t);
    if (!match || (match[2] + (match[3] || "")) === "") return null;
    let n = BigInt(match[2] + (match[3] || "") || "0"), d = 10n ** BigInt((match[3] || "").length);
    const exponent = parseInt(match[4] || "0", 10);
    if (exponent > 0) n *= 10n ** BigInt(exponent); else d *= 10n ** BigInt(-exponent);
    return { n: match[1] === "-" ? -n : n, d };
  }
  function parseValue(text) {
    const trimmed = text.trim().replace(/−/g, "-");
    const found = /^(≥|≤|>=|<=)/.exec(trimmed);
    const mark = found ? ({ ">=": "≥", "<=": "≤" }[found[1]] || found[1]) : "";
    const body = trimmed.slice(found ? found[1].length : 0).trim();
    const items = /^[([]|,/.test(body) ? body.replace(/^[([]|[)\]]$/g, "").split(",") : [body];
    const numbers = items.map(parseNumber);
    return numbers.some((number) => number === null) ? null : { mark, numbers };
  }
  function same(a, b) {
    if (a.inf || b.inf) return a.inf === b.inf;
    return a.n * b.d === b.n * a.d;
  }
  function sameValue(given, expected) {
    return given.numbers.length === expected.numbers.length && given.numbers.every((number, i) => same(number, expected.numbers[i]));
  }
  const shownValue = (text) => view.pretty(text);

  // -- the answer table, one row per drawn inner node
  function build() {
    $("practice-help").textContent = W.help + (key.bounds ? W.help_bounds : "") + (key.prunes ? W.help_prunes : "") + W.help_end;
    const head = $("answers").tHead.insertRow();
    for (const title of [W.col_node, W.col_value, ...(key.bounds ? ["α", "β"] : []), W.col_check]) {
      head.appendChild(document.createElement("th")).textContent = title;
    }
    const body = $("answers").tBodies[0];
    for (let i = 0; i < size; i++) {
      if (!key.nodes[i]) continue;
      const row = body.insertRow();
      row.dataset.for = data.ids[i];
      row.insertCell().textContent = (SYMBOL[data.kinds[i]] || "") + " " + data.names[i];
      const fields = { row, value: null, alpha: null, beta: null, why: null };
      for (const field of key.bounds ? ["value", "alpha", "beta"] : ["value"]) {
        const input = document.createElement("input");
        input.dataset.field = field; input.dataset.for = data.ids[i];
        if (data.kinds.includes("player")) input.className = "wide";  // payoff vectors
        input.setAttribute("aria-label", fill(W.field_of, { field: W["field_" + field], node: data.names[i] }));
        input.oninput = () => showEntry(i);
        input.onfocus = () => row.classList.add("focus");
        input.onblur = () => row.classList.remove("focus");
        row.insertCell().appendChild(input);
        fields[field] = input;
      }
      fields.why = row.insertCell(); fields.why.className = "why";
      inputs[i] = fields;
      view.nodes[i].addEventListener("click", () => { if (document.body.dataset.mode === "practice") fields.value.focus(); });
    }
    for (let i = 0; i < size; i++) {
      const edge = view.edges[i];
      if (!edge) continue;
      edge.addEventListener("click", () => toggle(i));
      edge.addEventListener("keydown", (event) => {
        if (event.key === "Enter" || event.key === " ") { event.preventDefault(); toggle(i); }
      });
    }
    $("check").onclick = check; $("download").onclick = download; $("clear").onclick = clear;
    built = true;
  }
  function showEntry(i) {
    const fields = inputs[i], el = view.nodes[i], part = view.parts[i];
    part.val.textContent = shownValue(fields.value.value.trim());
    if (fields.alpha && part.a) {
      const a = fields.alpha.value.trim(), b = fields.beta.value.trim();
      part.a.textContent = a ? "α=" + shownValue(a) : ""; part.b.textContent = b ? "β=" + shownValue(b) : "";
    }
    delete el.dataset.check;
  }
  function toggle(i) {
    if (marked.has(i)) marked.delete(i); else marked.add(i);
    showMarks();
  }
  function topmost() {  // marked edges with no marked edge above them
    const tops = [];
    for (const i of [...marked].sort((a, b) => a - b)) if (!tops.some((top) => i >= top && i < data.end[top])) tops.push(i);
    return tops;
  }
  function showMarks() {
    const tops = topmost();
    for (let i = 0; i < size; i++) {
      if (view.edges[i]) {
        view.edges[i].classList.toggle("marked", marked.has(i));
        view.edges[i].classList.remove("missed");
        view.edges[i].setAttribute("aria-pressed", String(marked.has(i)));
      }
      view.nodes[i].classList.toggle("below-mark", tops.some((top) => i >= top && i < data.end[top]));
    }
  }

  // -- checking
  function grade(input, expectedText, expectedMark, field) {
    const text = input.value.trim(), what = field === "value" ? W.field_value : field === "alpha" ? "α" : "β";
    if (!text) return field === "value" ? [false, fill(W.empty, { expected: shownValue(expectedMark + expectedText) })] : [null, ""];
    const given = parseValue(text), expected = parseValue(expectedMark + expectedText);
    if (given === null) return [false, fill(W.not_number, { given: text })];
    if (!sameValue(given, expected)) {
      return [false, fill(W.wrong_value, { what, expected: shownValue(expectedMark + expectedText), given: shownValue(text) })];
    }
    if (given.mark && given.mark !== expected.mark) return [false, expected.mark ? fill(W.leaves_bound, { mark: expectedMark }) : W.not_bound];
    return [true, ""];
  }
  function check() {
    let right = 0, total = 0;
    for (let i = 0; i < size; i++) {
      const fields = inputs[i];
      if (!fields) continue;
      const expected = key.nodes[i], reasons = [];
      let ok = true;
      if (!expected.visited) {
        const given = ["value", "alpha", "beta"].some((field) => fields[field] && fields[field].value.trim());
        ok = !given;
        mark(fields.value, ok);
        if (!ok) reasons.push(W.never_visited);
      } else {
        for (const field of ["value", "alpha", "beta"]) {
          if (!fields[field] || expected[field] === undefined) continue;
          const [good, why] = grade(fields[field], expected[field], field === "value" ? expected.mark : "", field);
          mark(fields[field], good);
          if (good === false) { ok = false; reasons.push(why); }
        }
      }
      total += 1; if (ok) right += 1;
      view.nodes[i].dataset.check = ok ? "right" : "wrong";
      fields.row.dataset.check = ok ? "right" : "wrong";
      fields.why.textContent = ok ? W.right : "✗ " + reasons.join("; ");
      fields.why.className = "why " + (ok ? "right-text" : "wrong-text");
    }
    const cuts = checkCuts();
    right += cuts.right; total += cuts.total;
    $("score").textContent = fill(W.score, { right, total });
    document.body.dataset.checked = "true";
  }
  function mark(input, good) {
    input.classList.toggle("right", good === true);
    input.classList.toggle("wrong", good === false);
  }
  function checkCuts() {
    const list = $("cut-results"), tops = topmost(), expected = new Set(key.pruned);
    const under = (i, set) => [...set].some((top) => i > top && i < data.end[top]);
    list.textContent = "";
    let right = 0, total = 0;
    const say = (good, text, node) => {
      const item = document.createElement("li");
      item.textContent = (good ? "✓ " : "✗ ") + text;
      item.className = good ? "right-text" : "wrong-text";
      item.dataset.check = good ? "right" : "wrong"; item.dataset.for = node;
      list.appendChild(item);
      total += 1; if (good) right += 1;
    };
    for (const i of key.pruned) {
      if (tops.includes(i)) say(true, fill(W.cut_before, { node: data.names[i], why: key.cutBy[i] }), data.ids[i]);
      else if (!under(i, new Set(tops))) {
        say(false, fill(W.missed_cut, { node: data.names[i], why: key.cutBy[i] }), data.ids[i]);
        view.edges[i].classList.add("missed");
      }
    }
    for (const i of tops) {
      if (!expected.has(i) && !under(i, expected)) say(false, fill(W.no_cut, { node: data.names[i] }), data.ids[i]);
    }
    return { right, total };
  }

  // -- the answer file
  function toJson(text) {
    const body = text.trim().replace(/^(≥|≤|>=|<=)/, "").trim().replace(/−/g, "-");
    if (/^[([]|,/.test(body)) return body.replace(/^[([]|[)\]]$/g, "").split(",").map((part) => toJson(part));
    if (/^\+?(inf|infinity|∞)$/i.test(body)) return "inf";
    if (/^-(inf|infinity|∞)$/i.test(body)) return "-inf";
    if (/^[+-]?\d+$/.test(body) && Number.isSafeInteger(Number(body))) return Number(body);
    return body;
  }
  function answers() {
    const nodes = {};
    for (let i = 0; i < size; i++) {
      const fields = inputs[i];
      if (!fields) continue;
      const entry = {};
      for (const field of ["value", "alpha", "beta"]) {
        if (fields[field] && fields[field].value.trim()) entry[field] = toJson(fields[field].value);
      }
      // a value typed as a bound (≤2, >=8) keeps its kind, as the JSON result's bound_kind: check grades it too
      const sign = fields.value ? /^\s*(≤|<=|≥|>=)/.exec(fields.value.value) : null;
      if (sign && "value" in entry) entry.bound_kind = /^(≤|<=)$/.test(sign[1]) ? "upper" : "lower";
      const given = Object.keys(entry);
      if (given.length === 1 && given[0] === "value") nodes[data.ids[i]] = entry.value;
      else if (given.length) nodes[data.ids[i]] = entry;
    }
    const result = { nodes };
    if (key.prunes) result.pruned = topmost().map((i) => data.ids[i]);
    return Object.assign({}, key.exercise, { answers: result });
  }
  function download() {
    const text = JSON.stringify(answers(), null, 2) + "\n";
    const link = document.createElement("a");
    link.href = URL.createObjectURL(new Blob([text], { type: "application/json" }));
    link.download = (data.title.normalize("NFD").replace(/[\u0300-\u036f]/g, "").toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-|-$/g, "") || "tree") + ".answers.json";
    document.body.appendChild(link); link.click(); link.remove();
    setTimeout(() => URL.revokeObjectURL(link.href), 1000);
  }
  function clear() {
    marked.clear(); showMarks();
    for (const fields of inputs) {
      if (!fields) continue;
      for (const field of ["value", "alpha", "beta"]) if (fields[field]) { fields[field].value = ""; mark(fields[field], null); }
      fields.why.textContent = ""; delete fields.row.dataset.check;
    }
    for (let i = 0; i < size; i++) if (inputs[i]) showEntry(i);
    $("cut-results").textContent = ""; $("score").textContent = "";
  }

  // -- entering and leaving: the tree blank but for the leaves and what the student typed
  function enter() {
    if (!built) build();
    for (let i = 0; i < size; i++) {
      const el = view.nodes[i], edge = view.edges[i];
      el.dataset.state = "unvisited"; el.classList.remove("pv");
      if (inputs[i]) showEntry(i);
      else if (view.parts[i].a) { view.parts[i].a.textContent = ""; view.parts[i].b.textContent = ""; }
      if (edge) {
        edge.classList.remove("pruned", "pv");
        edge.querySelector(".scissors").setAttribute("visibility", "hidden");
        edge.setAttribute("tabindex", "0"); edge.setAttribute("role", "button");
        edge.setAttribute("aria-label", fill(W.mark_edge, { node: data.names[i] }));
      }
    }
    showMarks();
  }
  function leave() {
    for (let i = 0; i < size; i++) {
      const el = view.nodes[i], edge = view.edges[i];
      el.classList.remove("below-mark"); delete el.dataset.check;
      if (edge) {
        edge.classList.remove("marked", "missed");
        edge.removeAttribute("tabindex"); edge.removeAttribute("role"); edge.removeAttribute("aria-pressed");
        edge.querySelector(".scissors").setAttribute("visibility", "hidden");
      }
    }
  }
  return { enter, leave, answers };
};
