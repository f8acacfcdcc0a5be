// gametree's search page: replays the steps Python wrote from the search record (plain JavaScript, no library).
// Every drawn node carries data-node (its id) and data-state (unvisited, current, visited or pruned).
"use strict";
(function () {
  const data = JSON.parse(document.getElementById("gametree-data").textContent);
  const steps = data.steps, size = data.ids.length, last = steps.length - 1;
  const UNVISITED = 0, VISITED = 1, PRUNED = 2, STATES = ["unvisited", "visited", "pruned"];
  const $ = (id) => document.getElementById(id);
  const nodes = [], edges = new Array(size).fill(null);
  for (let i = 0; i < size; i++) nodes.push($("n" + i));
  document.querySelectorAll("#tree .edge").forEach((edge) => { edges[+edge.dataset.child] = edge; });
  const parts = nodes.map((el) => ({
    val: el.querySelector(".val"), a: el.querySelector(".win .a"), b: el.querySelector(".win .b"),
    test: el.querySelector(".test"), testText: el.querySelector(".test text"), pill: el.querySelector(".test rect"),
  }));
  const pretty = (text) => text.replace(/-inf/g, "−∞").replace(/inf/g, "∞").replace(/-/g, "−");
  const W = data.words;  // the page's words in its language (gametree_cli/views/page_words.py)
  const fill = (text, values) => text.replace(/\{(\w+)\}/g, (all, name) => values[name]);

  // -- the state after a step: replayed from the first step (a step back replays; cheap next to drawing)
  function freshState() {
    return { at: -1, state: new Uint8Array(size), value: new Array(size).fill(""), alpha: new Array(size).fill(""),
      beta: new Array(size).fill(""), cut: new Uint8Array(size) };
  }
  function apply(st, step) {
    const node = step[1], value = step[2], windows = step[3], pruned = step[6];
    if (st.state[node] === UNVISITED) st.state[node] = VISITED;
    if (value !== null) st.value[node] = value;
    if (windows) for (const [at, alpha, beta] of windows) { st.alpha[at] = alpha; st.beta[at] = beta; }
    if (pruned) for (const top of pruned) {
      st.cut[top] = 1;
      for (let below = top; below < data.end[top]; below++) st.state[below] = PRUNED;
    }
  }
  let model = freshState();
  function stateAt(k) {
    if (k < model.at) model = freshState();
    while (model.at < k) apply(model, steps[++model.at]);
    return model;
  }

  // -- drawing a state: only what changed since the last one is touched
  const shown = { state: new Array(size).fill(""), value: new Array(size).fill(null), win: new Array(size).fill(null),
    cut: new Array(size).fill(false), pv: false, test: -1 };
  function windowText(alpha, beta) {
    if (!alpha && !beta) return ["", ""];
    if (alpha === "Bound") return [W.bound_label + "=" + pretty(beta), ""];
    return ["α=" + pretty(alpha), "β=" + pretty(beta)];
  }
  function draw(k) {
    const st = stateAt(k), step = steps[k], current = step[1], end = k === last;
    for (let i = 0; i < size; i++) {
      const name = i === current ? "current" : STATES[st.state[i]];
      const el = nodes[i], part = parts[i];
      if (shown.state[i] !== name) { el.dataset.state = name; shown.state[i] = name; }
      const value = end && data.final[i] !== null ? data.final[i] : st.value[i];
      if (shown.value[i] !== value && data.kinds[i] !== "leaf") {
        el.dataset.value = value; part.val.textContent = pretty(value); shown.value[i] = value;
      }
      const win = st.alpha[i] + "|" + st.beta[i];
      if (shown.win[i] !== win && part.a) {
        const [a, b] = windowText(st.alpha[i], st.beta[i]);
        part.a.textContent = a; part.b.textContent = b;
        el.dataset.alpha = st.alpha[i] === "Bound" ? "" : st.alpha[i];
        el.dataset.beta = st.alpha[i] === "Bound" ? "" : st.beta[i];
        if (st.alpha[i] === "Bound") el.dataset.bound = st.beta[i];
        shown.win[i] = win;
      }
      const edge = edges[i];
      if (edge && shown.cut[i] !== (st.state[i] === PRUNED)) {
        edge.classList.toggle("pruned", st.state[i] === PRUNED);
        edge.querySelector(".scissors").setAttribute("visibility", st.cut[i] ? "visible" : "hidden");
        shown.cut[i] = st.state[i] === PRUNED;
      }
    }
    showPv(end);
    showTest(step[4]);
    showPanel(k, step, end);
  }
  function showPv(on) {
    if (shown.pv === on) return;
    for (const i of data.pv) {
      nodes[i].classList.toggle("pv", on);
      if (edges[i]) edges[i].classList.toggle("pv", on);
    }
    shown.pv = on;
  }
  function showTest(test) {
    if (shown.test >= 0) parts[shown.test].test.setAttribute("visibility", "hidden");
    shown.test = -1;
    if (!test) { $("test-line").textContent = ""; return; }
    const [at, text, name] = test, part = parts[at];
    part.testText.textContent = text;
    const width = part.testText.getComputedTextLength() + 24;
    part.pill.setAttribute("x", String(-width / 2)); part.pill.setAttribute("width", String(width));
    part.test.setAttribute("visibility", "visible");
    shown.test = at;
    $("test-line").textContent = text.startsWith(name + ": ") ? text : name + ": " + text;
  }
  function showPanel(k, step, end) {
    $("step-no").textContent = String(k);
    const kind = $("step-kind");
    kind.textContent = W["kind_" + step[0]]; kind.className = "badge " + step[0];
    // the lines solve --trace prints up to this step: a return right after a cut has none (""),
    // the cut's line already gave its value, so the last line printed stays the current one
    const said = [];
    for (let i = k; i >= 0 && said.length < 8; i--) if (steps[i][5]) said.unshift(steps[i][5]);
    $("line").textContent = (said[said.length - 1] || "").replace(/^[.\s]+/, "");
    const log = $("log");
    log.textContent = "";
    said.forEach((text, i) => {
      const item = document.createElement("li");
      item.textContent = text;
      if (i === said.length - 1) item.className = "now";
      log.appendChild(item);
    });
    $("summary").hidden = !end;
    slider.value = String(k);
  }

  // -- moving: buttons, slider, keys, the URL fragment, play
  const slider = $("slider");
  slider.max = String(last);
  $("step-last").textContent = String(last);
  $("summary").textContent = data.summary + (data.hidden ? " · " + fill(W.not_drawn, { count: data.hidden.toLocaleString() }) : "");
  let at = 0, timer = null;
  function go(k, fromHash) {
    at = Math.max(0, Math.min(last, k));
    draw(at);
    document.body.dataset.step = String(at);
    follow();
    if (!fromHash) history.replaceState(null, "", "#step=" + at);
  }
  function fromHash() {
    const match = /step=(\d+|end)/.exec(location.hash);
    if (!match) return 0;
    return match[1] === "end" ? last : parseInt(match[1], 10);
  }
  function play(on) {
    if (timer) { clearInterval(timer); timer = null; }
    if (on) {
      if (at >= last) go(0);
      timer = setInterval(() => { if (at >= last) play(false); else go(at + 1); }, +$("speed").value);
    }
    $("play").textContent = timer ? W.pause_button : W.play_button;
    $("play").setAttribute("aria-label", timer ? W.pause : W.play);
  }
  $("first").onclick = () => { play(false); go(0); };
  $("back").onclick = () => { play(false); go(at - 1); };
  $("forward").onclick = () => { play(false); go(at + 1); };
  $("last").onclick = () => { play(false); go(last); };
  $("play").onclick = () => play(!timer);
  $("speed").onchange = () => { if (timer) play(true); };
  slider.oninput = () => { play(false); go(+slider.value); };
  window.addEventListener("hashchange", () => go(fromHash(), true));
  const svg = document.getElementById("tree"), box = svg.viewBox.baseVal, canvas = $("canvas");
  function fit(on) {
    document.body.classList.toggle("fit", on);
    svg.style.width = on ? "" : box.width + "px";
    svg.style.height = on ? "" : box.height + "px";
    if (!on) follow();
    $("fit").setAttribute("aria-pressed", String(on));
    $("fit").textContent = on ? W.fit : W.full_size;
  }
  $("fit").onclick = () => fit(!document.body.classList.contains("fit"));
  document.addEventListener("keydown", (event) => {
    const target = event.target;
    if (target.tagName === "INPUT" && target.type !== "range" || target.tagName === "SELECT") return;
    if (event.altKey || event.ctrlKey || event.metaKey) return;
    const practising = document.body.dataset.mode === "practice";
    const keys = {
      ArrowRight: () => { play(false); go(at + 1); }, ArrowLeft: () => { play(false); go(at - 1); },
      Home: () => { play(false); go(0); }, End: () => { play(false); go(last); }, " ": () => play(!timer),
    };
    if (event.key === "z") { fit(!document.body.classList.contains("fit")); return; }
    if (event.key === "p") { setMode("practice"); return; }
    if (event.key === "w") { setMode("watch"); return; }
    if (practising || !keys[event.key]) return;
    if (event.key === " " && target.tagName === "BUTTON") return;  // the button's own click
    event.preventDefault();
    keys[event.key]();
  });

  // -- modes
  const practice = window.gametreePractice(data, { nodes, edges, parts, pretty, fill });
  function setMode(mode) {
    if (mode === "practice" && !data.practice.available) mode = "watch";
    play(false);
    document.body.dataset.mode = mode;
    $("mode-watch").setAttribute("aria-pressed", String(mode === "watch"));
    $("mode-practice").setAttribute("aria-pressed", String(mode === "practice"));
    $("watch-panel").hidden = mode !== "watch";
    $("practice-panel").hidden = mode !== "practice";
    if (mode === "practice") { showTest(0); showPv(false); practice.enter(); }
    else { practice.leave(); shown.state.fill(""); shown.value.fill(null); shown.win.fill(null); shown.cut.fill(null); go(at, true); }
  }
  $("mode-watch").onclick = () => setMode("watch");
  $("mode-practice").onclick = () => setMode("practice");
  if (!data.practice.available) {
    $("mode-practice").disabled = true;
    $("mode-practice").title = W.practise_off;
  }
  function follow() {  // full size: keep the current node in view
    if (document.body.classList.contains("fit") || !steps.length) return;
    const node = nodes[steps[at][1]].getBoundingClientRect(), view = canvas.getBoundingClientRect();
    if (node.left < view.left + 60 || node.right > view.right - 60) canvas.scrollLeft += node.left + node.width / 2 - (view.left + view.width / 2);
    if (node.top < view.top + 60 || node.bottom > view.bottom - 60) canvas.scrollTop += node.top + node.height / 2 - (view.top + view.height / 2);
  }
  // a tree too wide to read when fitted starts at full size, scrolled to the step shown
  fit(box.width <= canvas.clientWidth * 1.8 && box.height <= canvas.clientHeight * 1.8);
  go(fromHash(), true);
  if (data.start === "practice") setMode("practice");  // render --blank: a handout to fill in
  document.body.dataset.ready = "true";
})();
