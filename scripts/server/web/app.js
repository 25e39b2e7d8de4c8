// The page of `connectx serve`. The server holds no game: this page keeps the move list
// and sends it with every request; every rule (legal moves, wins) is decided by the
// server (agents.rules). Columns are 0-based in the API and shown 1-based. The board and
// the scores are drawn by board.js (loaded first; the notebook widget draws with it too).
"use strict";

const $ = (id) => document.getElementById(id);

async function api(path, body) {
  const options = body === undefined ? {} : {
    method: "POST", headers: {"Content-Type": "application/json"}, body: JSON.stringify(body)};
  const response = await fetch(path, options);
  let data;
  try {
    data = await response.json();
  } catch (e) {
    throw new Error(`${path}: HTTP ${response.status}`);
  }
  if (!response.ok) throw new Error(data.error || `${path}: HTTP ${response.status}`);
  return data;
}

// ---------------------------------------------------------------------------
// Play
// ---------------------------------------------------------------------------

const game = {cfg: null, agent: "", human: 1, state: null, times: [], gen: 0, busy: false,
              last: -1, analysis: 0};

function readConfig() {
  const num = (id) => {
    const text = $(id).value.trim();
    return /^\d+$/.test(text) ? Number(text) : text;  // the server explains a bad value
  };
  return {rows: num("rows"), columns: num("columns"), inarow: num("inarow")};
}

function setBusy(busy) {
  game.busy = busy;
  $("board").dataset.busy = busy ? "1" : "0";
}

function renderGame() {
  const s = game.state;
  const board = $("board");
  renderBoard(board, s.board, s.config, game.last, clickColumn);
  board.dataset.preview = "0";
  board.dataset.moves = s.moves.join(",");
  board.dataset.over = s.over ? "1" : "0";
  board.dataset.winner = s.winner;
  board.classList.toggle("your-turn", !s.over && s.to_move === game.human);
  const history = $("history");
  history.replaceChildren();
  s.moves.forEach((c, i) => {
    const mark = 1 + (i % 2);
    const li = document.createElement("li");
    const who = mark === game.human ? "you" : game.agent;
    const t = game.times[i];
    li.textContent = `${MARK_NAME[mark]} (${who}): column ${c + 1}` +
                     (t == null ? "" : ` in ${formatTime(t)}`);
    history.appendChild(li);
  });
  history.scrollTop = history.scrollHeight;
  if (s.over) {
    const text = s.winner === 0 ? "Draw: the board is full." :
      s.winner === game.human ? "You win!" : `${game.agent} wins.`;
    show($("status"), `${text} (moves ${s.notation || "–"})`);
  }
}

async function newGame(event) {
  if (event) event.preventDefault();
  game.gen++;
  const gen = game.gen;
  game.cfg = readConfig();
  game.agent = $("agent").value.trim();
  game.human = Number($("colour").value);
  game.times = [];
  game.last = -1;
  setBusy(true);  // until the new game's state arrives: clicks wait for it
  $("scores").hidden = true;
  show($("analysis-status"), "");
  try {
    const state = await api("/api/state", {config: game.cfg, moves: $("moves-text").value.trim()});
    if (gen !== game.gen) return;
    game.state = state;
    game.times = state.moves.map(() => null);
    renderGame();
    setBusy(false);
  } catch (e) {
    if (gen !== game.gen) return;
    setBusy(false);
    show($("status"), e.message, true);
    return;
  }
  await settle(gen);
}

// After a position change: the agent moves if it is its turn, then the analysis runs.
async function settle(gen) {
  const s = game.state;
  if (!s.over && s.to_move !== game.human) {
    setBusy(true);
    show($("status"), `${game.agent} is thinking…`);
    try {
      const reply = await api("/api/move", {config: game.cfg, moves: s.moves, agent: game.agent});
      if (gen !== game.gen) return;
      game.last = landed(s.board, reply.state.board, reply.column, s.config.columns);
      game.state = reply.state;
      game.times.push(reply.time);
      show($("status"), `${game.agent} played column ${reply.column + 1} in ` +
                        `${formatTime(reply.time)}. Your move.`);
    } catch (e) {
      if (gen !== game.gen) return;
      show($("status"), e.message, true);
      setBusy(false);
      return;
    }
    setBusy(false);
    renderGame();
  } else if (!s.over) {
    show($("status"), `Your move (${MARK_NAME[game.human]}): click a column.`);
  }
  await analyze(gen);
}

async function clickColumn(c) {
  const s = game.state;
  if (!s || game.busy || s.over) return;
  if (s.to_move !== game.human) return;
  if (!s.legal.includes(c)) {
    show($("status"), `Column ${c + 1} is full; choose another.`, true);
    return;
  }
  const gen = game.gen;
  setBusy(true);
  try {
    const state = await api("/api/state", {config: game.cfg, moves: s.moves.concat([c])});
    if (gen !== game.gen) return;
    game.last = landed(s.board, state.board, c, s.config.columns);
    game.state = state;
    game.times.push(null);
    setBusy(false);
    renderGame();
    await settle(gen);
  } catch (e) {
    setBusy(false);
    show($("status"), e.message, true);
  }
}

async function undo() {
  const s = game.state;
  if (!s || game.busy) return;
  // back to the position before the human's last move
  let i = s.moves.length - 1;
  while (i >= 0 && 1 + (i % 2) !== game.human) i--;
  if (i < 0) return;
  game.gen++;
  const gen = game.gen;
  try {
    const state = await api("/api/state", {config: game.cfg, moves: s.moves.slice(0, i)});
    if (gen !== game.gen) return;
    game.state = state;
    game.times = game.times.slice(0, i);
    game.last = -1;
    renderGame();
    await settle(gen);
  } catch (e) {
    show($("status"), e.message, true);
  }
}

// ---------------------------------------------------------------------------
// Analysis
// ---------------------------------------------------------------------------

async function analyze(gen) {
  const box = $("scores");
  const s = game.state;
  const token = ++game.analysis;  // only the latest analysis may draw
  hideLine();
  if (!$("analyze").checked || !s) {
    box.hidden = true;
    show($("analysis-status"), "");
    return;
  }
  if (s.over) {
    box.hidden = true;
    show($("analysis-status"), "The game is over: nothing to analyse.");
    return;
  }
  box.hidden = false;
  box.dataset.ready = "0";
  box.replaceChildren();
  box.style.setProperty("--columns", s.config.columns);
  show($("analysis-status"), "Analysing…");
  let reply;
  try {
    const limit = Number($("analysis-time").value);
    reply = await api("/api/analyze", {config: game.cfg, moves: s.moves, time_limit: limit});
  } catch (e) {
    if (token === game.analysis && gen === game.gen) show($("analysis-status"), e.message, true);
    return;
  }
  if (token !== game.analysis || gen !== game.gen || game.state !== s) return;
  const exact = reply.method === "solver";
  reply.scores.forEach((sc, c) => {
    const cell = scoreCell(sc, c, s.legal, exact);
    if (sc !== null && exact) cell.addEventListener("click", () => selectLine(c, s, sc, gen, token));
    box.appendChild(cell);
  });
  if (reply.line) {
    const sc = reply.scores[reply.line.column];
    // the analysis answers with the scores first: a line cut at the server's line time
    // is finished by /api/line (the analysis was not cut: its scores are all there)
    const rest = !reply.line.complete && reply.complete;
    showLine(reply.line, sc, s, rest);
    if (rest) selectLine(reply.line.column, s, sc, gen, token, true);
  }
  show($("analysis-status"), analysisText(reply, s));
  box.dataset.complete = reply.complete ? "1" : "0";
  box.dataset.ready = "1";
}

// ---------------------------------------------------------------------------
// The principal variation: a line that keeps the score to the end of the game
// ---------------------------------------------------------------------------

const pv = {moves: [], pos: 0, base: null, step: 0, ask: 0};

function hideLine() {
  if (pv.pos > 0 && game.state) renderGame();  // leave the preview
  pv.moves = [];
  pv.pos = 0;
  pv.base = null;
  pv.step++;
  $("line").hidden = true;
}

// ``pending``: the line is the start of one that /api/line is finishing.
function showLine(info, sc, s, pending = false) {
  pv.moves = info.moves;
  pv.pos = 0;
  pv.base = s;
  const text = `Line of column ${info.column + 1} (${scoreLabel(sc)}): ` +
               info.moves.map((c) => c + 1).join(" ") +
               (info.complete ? "" : pending ? " … (finding the rest)" : " … (cut short by the time limit)");
  const el = $("line-text");
  show(el, text);
  el.dataset.moves = info.moves.join(",");
  el.dataset.column = info.column;
  el.dataset.complete = info.complete ? "1" : "0";
  [...$("scores").children].forEach((cell) =>
    cell.classList.toggle("selected", Number(cell.dataset.col) === info.column));
  $("line").hidden = false;
  updateLinePos();
}

function updateLinePos() {
  $("line-pos").textContent = `${pv.pos} / ${pv.moves.length}`;
  $("line-back").disabled = pv.pos === 0;
  $("line-forward").disabled = pv.pos >= pv.moves.length;
}

// ``rest``: the analysis's own line, whose start is shown, is being finished.
async function selectLine(c, s, sc, gen, token, rest = false) {
  if ((game.busy && !rest) || token !== game.analysis || gen !== game.gen) return;
  if (!rest) show($("line-text"), `Finding the line of column ${c + 1}…`);
  $("line").hidden = false;
  const ask = ++pv.ask;  // only the latest line request may draw
  try {
    const limit = Number($("analysis-time").value);
    const reply = await api("/api/line", {config: game.cfg, moves: s.moves, column: c, time_limit: limit});
    if (token !== game.analysis || gen !== game.gen || ask !== pv.ask) return;
    const at = pv.pos;
    if (!rest && at > 0) renderGame();
    showLine(reply, sc, s);
    if (rest && at > 0) {  // the preview stays: the start shown is the whole line's start
      pv.pos = Math.min(at, pv.moves.length);
      updateLinePos();
    }
  } catch (e) {
    if (token === game.analysis && gen === game.gen && ask === pv.ask) show($("line-text"), e.message, true);
  }
}

// Show the position after the first k moves of the line (a preview: the game is unchanged).
async function stepLine(k) {
  if (!pv.base || game.busy || game.state !== pv.base) return;
  pv.pos = Math.max(0, Math.min(pv.moves.length, k));
  const step = ++pv.step;
  updateLinePos();
  if (pv.pos === 0) {
    renderGame();
    return;
  }
  try {
    const st = await api("/api/state", {config: game.cfg,
                                        moves: pv.base.moves.concat(pv.moves.slice(0, pv.pos))});
    if (step !== pv.step) return;
    const el = $("board");
    renderBoard(el, st.board, st.config, topStone(st.board, pv.moves[pv.pos - 1], st.config.columns),
                null);
    el.dataset.preview = String(pv.pos);
    el.dataset.previewMoves = st.moves.join(",");
  } catch (e) {
    show($("line-text"), e.message, true);
  }
}

// ---------------------------------------------------------------------------
// Replay
// ---------------------------------------------------------------------------

const rp = {doc: null, game: null, pos: 0};

async function loadReplay(index) {
  try {
    const reply = await api("/api/replay", {match: rp.doc, game: index});
    rp.game = reply.game;
    rp.cfg = reply.config;
    rp.pos = 0;
    const select = $("replay-game");
    if (select.options.length !== reply.games.length) {
      select.replaceChildren();
      reply.games.forEach((g, i) => {
        const o = document.createElement("option");
        o.value = i;
        o.textContent = `${g.index}: ${(g.agents || []).join(" vs ")} ${g.result || ""} (${g.moves} moves)`;
        select.appendChild(o);
      });
    }
    select.value = index;
    $("replay-board").dataset.game = index;
    for (const id of ["replay-game", "replay-first", "replay-back", "replay-forward", "replay-last"]) {
      $(id).disabled = false;
    }
    const list = $("replay-moves");
    list.replaceChildren();
    rp.game.moves.forEach((c, i) => {
      const li = document.createElement("li");
      const t = rp.game.times[i];
      li.textContent = `${MARK_NAME[1 + (i % 2)]}: column ${c + 1}` +
                       (t == null ? "" : ` in ${formatTime(t)}`);
      li.addEventListener("click", () => stepTo(i + 1));
      list.appendChild(li);
    });
    stepTo(0);
  } catch (e) {
    show($("replay-status"), e.message, true);
  }
}

function stepTo(pos) {
  const g = rp.game;
  if (!g) return;
  rp.pos = Math.max(0, Math.min(g.moves.length, pos));
  const board = g.frames[rp.pos];
  const last = rp.pos ? landed(g.frames[rp.pos - 1], board, g.moves[rp.pos - 1], rp.cfg.columns) : -1;
  const el = $("replay-board");
  renderBoard(el, board, rp.cfg, last, null);
  el.dataset.pos = rp.pos;
  $("replay-pos").textContent = `${rp.pos} / ${g.moves.length}`;
  [...$("replay-moves").children].forEach((li, i) => li.classList.toggle("current", i === rp.pos - 1));
  const agentsText = (g.agents || []).map((a, i) => `${MARK_NAME[i + 1]} ${a}`).join(", ");
  let text;
  if (rp.pos === 0) {
    text = `${agentsText}. Result ${g.result || "?"}. Step with ▶.`;
  } else {
    const i = rp.pos - 1;
    const mark = 1 + (i % 2);
    const who = g.agents ? g.agents[mark - 1] : MARK_NAME[mark];
    const t = g.times[i];
    text = `move ${rp.pos}: ${who} (${MARK_NAME[mark]}) played column ${g.moves[i] + 1}` +
           (t == null ? " (no time recorded)" : ` in ${formatTime(t)}`);
    if (rp.pos === g.moves.length) {
      text += `. Result ${g.result || "?"}` + (g.error ? ` (${g.error})` : "");
    }
  }
  const status = $("replay-status");
  show(status, text);
  status.dataset.time = rp.pos && g.times[rp.pos - 1] != null ? g.times[rp.pos - 1] : "";
}

function readReplayFile() {
  const file = $("replay-file").files[0];
  if (!file) return;
  const reader = new FileReader();
  reader.onload = () => {
    try {
      rp.doc = JSON.parse(reader.result);
    } catch (e) {
      show($("replay-status"), `${file.name} is not JSON: ${e.message}`, true);
      return;
    }
    $("replay-game").replaceChildren();
    loadReplay(0);
  };
  reader.readAsText(file);
}

// ---------------------------------------------------------------------------
// Start
// ---------------------------------------------------------------------------

function showTab(name) {
  for (const tab of ["play", "replay", "tree"]) {
    $(tab).hidden = tab !== name;
    $(`tab-${tab}`).classList.toggle("active", tab === name);
  }
}

async function start() {
  $("setup").addEventListener("submit", newGame);
  $("undo").addEventListener("click", undo);
  $("analyze").addEventListener("change", () => analyze(game.gen));
  $("tab-play").addEventListener("click", () => showTab("play"));
  $("tab-replay").addEventListener("click", () => showTab("replay"));
  $("tab-tree").addEventListener("click", () => showTab("tree"));
  $("replay-file").addEventListener("change", readReplayFile);
  $("replay-game").addEventListener("change", () => loadReplay(Number($("replay-game").value)));
  $("replay-first").addEventListener("click", () => stepTo(0));
  $("replay-back").addEventListener("click", () => stepTo(rp.pos - 1));
  $("replay-forward").addEventListener("click", () => stepTo(rp.pos + 1));
  $("replay-last").addEventListener("click", () => stepTo(Infinity));
  $("line-back").addEventListener("click", () => stepLine(pv.pos - 1));
  $("line-forward").addEventListener("click", () => stepLine(pv.pos + 1));
  try {
    const info = await api("/api/agents");
    const list = $("agent-names");
    const offer = (text) => {
      const o = document.createElement("option");
      o.value = text;
      list.appendChild(o);
    };
    for (const a of info.agents) {
      // the perfect player's levels (skill 0-20: 20 is the default, full strength)
      const levels = "skill" in a.options ? [0, 5, 10, 15].map((s) => `${a.name}:skill=${s}`) : [];
      [a.name, ...("time_limit" in a.options ? [`${a.name}:time_limit=0.5`] : []), ...levels]
        .forEach(offer);
    }
    // the networks and submissions of the server's --files folder: the only files it plays
    for (const f of info.files || []) f.specs.forEach(offer);
    $("analysis-time").max = info.limits.analysis_time;
    if (info.limits.database_note) {
      $("database-note").textContent = info.limits.database_note.replace(/^note: /, "");
      $("database-note").hidden = false;
    }
  } catch (e) {
    show($("status"), e.message, true);
  }
  await newGame();
}

start();
