// The table's record, kept on this phone first (docs/architecture.md, "The referee's page").
//
// Every entry the referee taps goes into a queue kept in the browser's IndexedDB, with an
// id of its own and the draft version it was made against, and is shown taken at once.
// The queue is sent in order to POST /referee/api/entries, which does each entry once: an
// entry sent again (its answer lost) is found by its id. While the server cannot be
// reached the page says how many entries wait, keeps taking taps (the next turn guessed
// from the last state the server sent) and sends them when it can. An entry the server
// cannot place — another phone recorded first, the rules object, it is refused — stops
// the queue and is shown to the referee, with both versions, to decide.
//
// Names and every other text from the server are set as text (textContent), never as
// markup.
//
// The page speaks the phone's language: its own texts go through _() and ngettext(),
// whose English is the id of the dashboard's catalogue (Babel extracts them from this
// file); /referee/api/words answers them in the language the page's address names
// (?lang=nl) or else the browser's, and they are kept on the phone with the table. What
// the server says (the turn, the rules' findings, the entries) comes in that language too.
"use strict";

const CODE = new URLSearchParams(location.search).get("code") || "";
const ASKED = new URLSearchParams(location.search).get("lang") || "";
const API = "/referee/api/";
// waits between sends the server did not answer: never more than 2 s, so entries made
// while the server was down (a laptop's lid, a restart) go within 2 s of its return
// (5 s at most kept ten phones' referees waiting up to 12 s after it); a phone's few
// bytes every 2 s are nothing to a server, or a venue's network
const RETRY_MS = [500, 1000, 2000];
const POLL_MS = 4000;
// A screen just drawn takes no tap meant for the one before it: a double tap's second
// tap, or a tap whose finger went down on the screen before (ms)
const SETTLE_MS = 350;

const app = {
  table: null, // what the code opens (TableView)
  server: null, // the game as the server last sent it (Standing)
  history: {}, // lines -> Standing: what an undo goes back to while offline
  queue: [], // entries not yet recorded, oldest first
  notices: [], // what the rules said of entries recorded after they were made offline
  step: {}, // the entry being tapped
  online: null, // the last request reached the server
  closed: false, // the code opens no table
  sending: false,
  failures: 0,
  problem: "",
  scoring: null, // the round's end as the server counts it
  taking: false, // an entry is being taken: the screen is about to be drawn anew
  taken: 0, // entries taken on this page since it opened (the page's witnesses for a test: body[data-taken])
  recorded: 0, // answers "recorded" this page had (body[data-recorded])
  lang: "", // the language the server answers in
  words: {}, // this page's texts in it, by their English
  plurals: {}, // and its plurals, [one, other] by the English singular
  held: false, // another tab of this browser opened this table's card first: this one takes nothing
  mazeLeft: 0, // how far the maze was last scrolled sideways (a phone), kept from screen to screen
};

// -- the page's words -----------------------------------------------------------------------------

// Text from outside (a name, a table's label, the tournament's name) in a line of the page's
// own, as dashboard/markup.py's isolated() puts it: its controls and the marks that turn the
// direction of the text after them written out as the command line writes them (a table
// labelled "\u202e1t-elbat" showed as "table-t1", and the tournament's name after it backwards),
// and a piece in a right-to-left script set apart (U+2068 ... U+2069), so that it is laid out
// in its own direction and reorders none of the line around it. Every name (nameOf), the
// table's label and the tournament's name go through it before they go into a line; the
// server's sentences (the turn, the findings) come with their names so already.
const UNSHOWN = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;
const RIGHT_TO_LEFT = /[\u0590-\u08ff\ufb1d-\ufdff\ufe70-\ufefc]|[\ud802\ud803\ud83a\ud83b][\udc00-\udfff]/;
const FSI = "\u2068";
const PDI = "\u2069";

function escaped(char) {
  const code = char.charCodeAt(0);
  return code < 0x100 ? "\\x" + code.toString(16).padStart(2, "0") : "\\u" + code.toString(16).padStart(4, "0");
}

function isolated(value) {
  const text = String(value);
  const inner = text.slice(1, -1);
  if (text.length > 1 && text[0] === FSI && text[text.length - 1] === PDI && inner === inner.replace(UNSHOWN, "")) {
    return text; // set apart already
  }
  const shown = text.replace(UNSHOWN, escaped);
  return RIGHT_TO_LEFT.test(shown) ? FSI + shown + PDI : shown;
}

function fill(text, values) {
  return values ? text.replace(/%\((\w+)\)[sd]/g, (blank, name) => (name in values ? String(values[name]) : blank)) : text;
}

function _(text, values) {
  return fill(app.words[text] || text, values);
}

function ngettext(one, other, n, values) {
  const forms = app.plurals[one] || [one, other];
  return fill(n === 1 ? forms[0] : forms[1], Object.assign({ num: n }, values));
}

async function loadWords() {
  try {
    const said = await call("words");
    if (said && said.words) Object.assign(app, { lang: said.lang, words: said.words, plurals: said.plurals || {} });
  } catch (e) {
    // offline: the words kept with the table serve
  }
  document.documentElement.lang = app.lang || "en";
  document.title = _("Saboteur Ledger · the table's record");
}

// -- keeping it on the phone --------------------------------------------------------------

let dbPromise = null;
function db() {
  if (!dbPromise) {
    dbPromise = new Promise((resolve, reject) => {
      const opening = indexedDB.open("saboteur-referee", 1);
      opening.onupgradeneeded = () => opening.result.createObjectStore("tables");
      opening.onsuccess = () => resolve(opening.result);
      opening.onerror = () => reject(opening.error);
    });
  }
  return dbPromise;
}

async function load() {
  try {
    const base = await db();
    return await new Promise((resolve, reject) => {
      const got = base.transaction("tables").objectStore("tables").get(CODE);
      got.onsuccess = () => resolve(got.result || null);
      got.onerror = () => reject(got.error);
    });
  } catch (e) {
    return null;
  }
}

async function save() {
  if (app.held) return; // the phone's record is the other tab's
  const kept = { table: app.table, server: app.server, history: app.history, queue: app.queue, notices: app.notices,
    lang: app.lang, words: app.words, plurals: app.plurals };
  const base = await db();
  await new Promise((resolve, reject) => {
    const tx = base.transaction("tables", "readwrite");
    tx.objectStore("tables").put(kept, CODE);
    tx.oncomplete = resolve;
    tx.onerror = () => reject(tx.error);
  });
}

function newId() {
  const bytes = new Uint8Array(16);
  crypto.getRandomValues(bytes); // crypto.randomUUID needs HTTPS; a venue's server is often plain HTTP
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

// -- talking to the server --------------------------------------------------------------------

async function call(path, body) {
  const init = body === undefined ? { cache: "no-store" } : {
    method: "POST", cache: "no-store", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body),
  };
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), 15000); // a busy server's answer, not a lost one
  try {
    const lang = app.lang || ASKED;
    const address = API + path + (lang ? (path.includes("?") ? "&" : "?") + "lang=" + encodeURIComponent(lang) : "");
    const response = await fetch(address, { ...init, signal: controller.signal });
    const answer = await response.json();
    app.online = true;
    app.failures = 0;
    return answer;
  } finally {
    clearTimeout(timer);
  }
}

function unreachable() {
  app.online = false;
  app.failures += 1;
}

function keepState(state) {
  if (!state) return;
  app.server = state;
  app.history[state.lines] = state;
  const lines = Object.keys(app.history).map(Number).sort((a, b) => a - b);
  for (const old of lines.slice(0, Math.max(0, lines.length - 30))) delete app.history[old];
}

// -- one tab a table ----------------------------------------------------------------------------
// Two tabs (or windows) of one browser on one table's card share what the phone keeps (one
// record a code), each with a queue of its own: the last to save wrote over the other's,
// and an entry one had shown as taken was gone, unsaid. The tab opened first records; one
// opened after it says so and takes nothing, and reads the table afresh once the first is
// closed. (BroadcastChannel needs no HTTPS, which a venue's server often lacks.)
const tab = { id: newId(), since: performance.timeOrigin, peers: new Map() };
const tabs = "BroadcastChannel" in window ? new BroadcastChannel("saboteur-referee-" + CODE) : null;

function heldBack() {
  for (const peer of tab.peers.values()) {
    if (peer.since < tab.since || (peer.since === tab.since && peer.id < tab.id)) return true;
  }
  return false;
}

function heard(message) {
  const said = message.data || {};
  if (typeof said.id !== "string" || typeof said.since !== "number") return;
  if (said.kind === "hello" || said.kind === "here") {
    tab.peers.set(said.id, { id: said.id, since: said.since });
    if (said.kind === "hello") tabs.postMessage({ kind: "here", id: tab.id, since: tab.since });
  } else if (said.kind === "bye") {
    tab.peers.delete(said.id);
  }
  const held = heldBack();
  if (app.held && !held) takeUp(); // the first tab is gone: this one goes on from what it kept
  else if (held && !app.held) {
    app.held = true;
    render();
  }
}

// What the phone keeps, read again (not the page: over plain HTTP an offline reload
// finds none), and the entries waiting sent.
async function takeUp() {
  app.held = false;
  const kept = await load();
  if (kept) Object.assign(app, kept);
  render();
  pump();
}

async function announce() {
  tabs.postMessage({ kind: "hello", id: tab.id, since: tab.since });
  await new Promise((resolve) => setTimeout(resolve, 200)); // the tabs open already answer at once
}

async function electTab() {
  if (!tabs) return;
  tabs.onmessage = heard;
  window.addEventListener("pagehide", () => tabs.postMessage({ kind: "bye", id: tab.id, since: tab.since }));
  // back from the browser's page cache: it comes as the newest tab, another may have taken
  // up the table meanwhile; if none did, it goes on from what the phone keeps now
  window.addEventListener("pageshow", async (event) => {
    if (!event.persisted) return;
    tab.since = Date.now();
    tab.peers.clear();
    await announce();
    if (!app.held) takeUp();
  });
  await announce();
}

async function openTable() {
  await electTab();
  const kept = await load();
  if (kept) Object.assign(app, kept);
  if (ASKED && ASKED !== app.lang) app.lang = ""; // the address names another language: ask for it
  render();
  await loadWords();
  render();
  await refresh();
  pump();
  setInterval(() => { if (!app.sending && app.queue.length === 0) refresh(); }, POLL_MS);
}

// The game as the server has it now (another phone may have recorded): taken only when
// nothing of this phone's is on its way, and only if newer than what the page has (an
// answer that crossed a later one on the network is dropped). The page is drawn again
// only when something shown changed: a tap must never land on a page being replaced.
async function refresh() {
  const before = shown();
  try {
    const view = await call("table?code=" + encodeURIComponent(CODE));
    if (view.status === "closed" || view.status === "refused") {
      app.closed = true;
    } else {
      app.closed = false;
      app.table = view;
      const newer = view.state && (!app.server || view.state.version > app.server.version);
      if (newer && app.queue.length === 0 && !app.sending) keepState(view.state);
      await save();
    }
  } catch (e) {
    unreachable();
  }
  if (shown() !== before) render();
  else linkStatus();
}

function shown() {
  const t = app.table;
  return JSON.stringify([app.closed, app.online, app.server && app.server.version, t && t.stored, t && t.seats]);
}

async function begin() {
  try {
    const answer = await call("begin", { code: CODE });
    if (answer.status === "recorded") keepState(answer.state);
    else app.problem = answer.problem || _("The game could not be begun.");
    await save();
  } catch (e) {
    unreachable();
    app.problem = _("The server cannot be reached: begin the game again when the network is back.");
  }
  render();
}

// The queue: sent one at a time, in order, until it is empty or an entry needs the referee.
async function pump() {
  if (app.sending || app.held) return;
  app.sending = true;
  try {
    while (app.queue.length && app.queue[0].stop === undefined) {
      const head = app.queue[0];
      if (!head.tried) {
        head.tried = true;
        await save();
      }
      let answer;
      try {
        answer = await call("entries", {
          code: CODE, entry: head.entry, base: head.base, check: head.check, at: head.at,
          sent_at: new Date().toISOString(), tap: head.tap,
        });
      } catch (e) {
        unreachable();
        render();
        setTimeout(pump, RETRY_MS[Math.min(app.failures, RETRY_MS.length) - 1]);
        return;
      }
      if (answer.status === "busy") {
        render();
        setTimeout(pump, 1000);
        return;
      }
      if (answer.status === "recorded") {
        app.queue.shift();
        app.recorded += 1;
        keepState(answer.state);
        if (answer.findings && answer.findings.length && !head.heard) {
          app.notices.push({ said: answer.said || head.said, findings: answer.findings, lines: answer.state.lines });
        }
      } else if (answer.status === "closed") {
        app.closed = true;
        head.stop = "closed";
      } else {
        head.stop = answer.status; // warning, conflict, refused: the referee decides
        head.findings = answer.findings || [];
        head.theirs = answer.theirs || [];
        head.undone = answer.undone || 0;
        head.problem = answer.problem || "";
        if (answer.state && answer.status === "conflict") keepState(answer.state);
      }
      await save();
      render();
    }
  } finally {
    app.sending = false;
  }
  render();
}

// One entry taken at a time: a second tap on the screen an entry is leaving (two clicks
// faster than the phone keeps the first) is not a second entry.
async function once(work) {
  if (app.taking || app.held) return;
  app.taking = true;
  try {
    await work();
  } finally {
    app.taking = false;
  }
}

// An entry is taken: kept on the phone, shown, then sent.
function take(tap, said) {
  return once(() => taken(tap, said));
}

async function taken(tap, said) {
  const base = app.queue.length ? app.queue[app.queue.length - 1].base + 1 : app.server.version;
  const entry = {
    entry: newId(), base, check: app.online !== false, at: new Date().toISOString(), tap, said,
  };
  app.queue.push(entry);
  app.taken += 1;
  app.step = {};
  app.scoring = null;
  await save();
  render();
  pump();
}

function undo() {
  // an entry never sent is taken back here, and never leaves the phone, as is one the
  // server answered it did not record (a rules' warning shown, a conflict, a refusal):
  // taken back by an entry of its own, that one would have undone the entry before it,
  // recorded right, once "Change it" dropped it. One sent whose answer is lost (it may be
  // recorded) is taken back by an entry of its own, after it.
  return once(async () => {
    const last = app.queue[app.queue.length - 1];
    if (last && (!last.tried || last.stop)) {
      app.queue.pop();
      app.taken += 1;
      app.step = {};
      await save();
      render();
      return;
    }
    await taken({ kind: "undo" }, _("take back the last entry"));
  });
}

// The referee's word on an entry the queue stopped at (once: "Drop it" tapped twice
// drops one entry).
function decide(choice) {
  return once(() => decided(choice));
}

async function decided(choice) {
  const head = app.queue[0];
  if (!head) return;
  if (choice === "record") { // the rules' warning heard: record it as it happened
    head.check = false;
    head.heard = true; // what the rules say of it was shown already: not said again once recorded
    delete head.stop;
  } else if (choice === "after") { // mine after theirs: each entry asked again in its new place
    let base = app.server.version;
    for (const entry of app.queue) {
      entry.base = base++;
      entry.check = true;
      delete entry.stop;
    }
  } else if (choice === "drop") {
    app.queue.shift();
    for (const entry of app.queue) entry.base -= 1;
    // a round's end changed: the roles turned up stay tapped (they were all lost, to tap again)
    if (head.tap.kind === "end_round" && app.queue.length === 0) {
      app.step = { kind: "end_round", roles: { ...(head.tap.roles || {}) }, gold: { ...(head.tap.gold_cards || {}) } };
    }
  } else if (choice === "drop-all") {
    app.queue = [];
  }
  await save();
  render();
  pump();
}

async function finish() {
  try {
    const answer = await call("finish", { code: CODE, base: app.server.version });
    if (answer.state) keepState(answer.state);
    app.problem = answer.status === "recorded" ? "" : (answer.problem || _("The game could not be stored."));
    await save();
  } catch (e) {
    unreachable();
    app.problem = _("The server cannot be reached: store the game when the network is back.");
  }
  render();
}

async function countScores(roles, gold) {
  try {
    app.scoring = await call("score", { code: CODE, roles, gold_cards: gold });
  } catch (e) {
    unreachable();
    app.scoring = { said: _("The scores are counted when the entry is sent.") };
  }
  render();
}

// -- the game as this phone sees it: the server's, with the entries waiting played on it ---------

function nameOf(player) { // set apart in its own direction (isolated): the page puts it in lines of its own words
  const seat = app.table && app.table.seats.find((s) => s.player === player);
  return seat ? isolated(seat.name) : player ? isolated(player) : _("nobody");
}

function players() {
  return app.table ? app.table.seats.map((s) => s.player) : [];
}

function nextPlayer(state, player) {
  const order = players();
  const at = order.indexOf(player);
  for (let step = 1; step <= order.length; step++) {
    const next = order[(at + step) % order.length];
    if (!state.hands || state.hands[next] === undefined || state.hands[next] > 0 || state.pile > 0) return next;
  }
  return order[(at + 1) % order.length];
}

function dueWords(due) {
  switch (due.kind) {
    case "turn": return _("%(player)s's turn", { player: nameOf(due.player) });
    case "draw": return _("%(player)s draws a card", { player: nameOf(due.player) });
    case "round": return _("Deal round %(round)s", { round: due.round });
    case "round_end": return _("The round is over: turn up the roles");
    case "game_end": return _("The game is over");
    case "over": return _("The game is recorded");
    default: return _("What happened next?");
  }
}

function afterCard(state, player) {
  if (state.hands) state.hands[player] = Math.max(0, (state.hands[player] || 0) - 1);
  state.due = state.pile > 0 ? { kind: "draw", player } : { kind: "turn", player: nextPlayer(state, player) };
}

function predict(server, queue) {
  let state = JSON.parse(JSON.stringify(server));
  state.guessed = false;
  for (const entry of queue) {
    if (entry.stop === "refused" || entry.stop === "warning" && entry.check) break;
    const tap = entry.tap;
    state.guessed = true;
    state.nearGoal = false; // the last entry laid a path card beside a goal still face down
    state.legal = null;
    state.lines += 1;
    state.recent = [entry.said, ...state.recent].slice(0, 6);
    if (tap.kind === "undo") {
      const before = app.history[state.lines - 2];
      if (before) state = Object.assign(JSON.parse(JSON.stringify(before)), { guessed: true, legal: null });
      else state.due = { kind: "unknown" };
      continue;
    }
    if (tap.kind === "end_round") {
      state.due = state.round < app.table.rounds ? { kind: "round", round: state.round + 1 } : { kind: "game_end" };
      state.maze = [];
      continue;
    }
    if (tap.kind === "end_game") {
      state.due = { kind: "over" };
      continue;
    }
    const event = tap.event;
    const player = event.player;
    switch (event.type) {
      case "round_started":
        state.round = event.round;
        state.maze = [];
        state.due = { kind: "turn", player: event.start_player };
        state.hands = null;
        break;
      case "play_path":
        state.nearGoal = state.maze.some((c) => c.goal && c.face_down && Math.abs(c.x - event.x) + Math.abs(c.y - event.y) === 1);
        state.maze.push({ x: event.x, y: event.y, card: event.card, goal: false, face_down: false,
          picture: app.table.tunnels[event.card][event.rotated ? 1 : 0] });
        afterCard(state, player);
        break;
      case "play_rockfall":
        state.maze = state.maze.filter((c) => !(c.x === event.x && c.y === event.y));
        afterCard(state, player);
        break;
      case "play_tool": {
        const tools = event.card.startsWith("break_") ? [] : (event.tool ? [event.tool] : app.table.tools[event.card]);
        const broken = new Set(state.broken[event.target] || []);
        if (event.card.startsWith("break_")) app.table.tools[event.card].forEach((t) => broken.add(t));
        tools.forEach((t) => broken.delete(t));
        state.broken[event.target] = [...broken];
        afterCard(state, player);
        break;
      }
      case "play_map":
      case "discard":
        afterCard(state, player);
        break;
      case "draw":
        if (state.hands) state.hands[player] = (state.hands[player] || 0) + 1;
        state.pile = Math.max(0, state.pile - 1);
        state.due = { kind: "turn", player: nextPlayer(state, player) };
        break;
      case "goal_revealed":
        state.maze.forEach((c) => { if (c.goal && c.y === SLOT_Y[event.goal]) { c.face_down = false; c.card = event.card; } });
        state.due = { kind: "unknown" };
        break;
      default:
        break;
    }
  }
  return state;
}

const SLOT_Y = { top: -2, middle: 0, bottom: 2 };
// English words, put into the page's language where shown: _(words)
const GOAL_CARDS = [["goal_gold", "gold"], ["goal_stone_ne", "stone (north–east)"], ["goal_stone_nw", "stone (north–west)"]];
const ROLES = [["gold_digger", "gold digger"], ["saboteur", "saboteur"], ["selfish_dwarf", "selfish dwarf"]];
const SLOTS = { top: "top", middle: "middle", bottom: "bottom" };
const TOOL_WORDS = { pick: "pickaxe", lamp: "lamp", cart: "cart" };
const NOTE_WORDS = {
  face_up_discard: "discarded a card face up", drew_from_discard: "drew from the discard pile",
  moved_path_card: "moved a path card already laid", moved_broken_tool: "moved or discarded a broken tool not repaired",
  showed_hand_card: "showed a hand card", showed_goal_card: "showed a goal card", showed_role_card: "showed a role card",
  looked_at_cards: "looked at cards they may not see", other: "broke a rule at the table",
};
// Each marked once for the catalogue (Babel reads calls, not comments); never called.
const MARKED = () => [_("gold"), _("stone (north–east)"), _("stone (north–west)"), _("gold digger"), _("saboteur"),
  _("selfish dwarf"), _("top"), _("middle"), _("bottom"), _("pickaxe"), _("lamp"), _("cart"),
  _("discarded a card face up"), _("drew from the discard pile"), _("moved a path card already laid"),
  _("moved or discarded a broken tool not repaired"), _("showed a hand card"), _("showed a goal card"),
  _("showed a role card"), _("looked at cards they may not see"), _("broke a rule at the table")];
const NOTES = ["face_up_discard", "drew_from_discard", "moved_path_card", "moved_broken_tool", "showed_hand_card",
  "showed_goal_card", "showed_role_card", "looked_at_cards", "other"];

// -- drawing the page ----------------------------------------------------------------------------------

function h(tag, props, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(props || {})) {
    if (value === undefined || value === null || value === false) continue;
    if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else if (key === "text") node.textContent = value;
    else node.setAttribute(key, value === true ? "" : value);
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    node.append(typeof child === "string" ? document.createTextNode(child) : child);
  }
  return node;
}

function button(label, onclick, extra) {
  return h("button", Object.assign({ type: "button", onclick, text: label }, extra || {}));
}

// One of a set to choose from: the one chosen is said (aria-pressed), not only drawn.
function choice(label, onclick, chosen, extra) {
  return button(label, onclick, Object.assign({}, extra, { class: chosen ? "chosen" : "", "aria-pressed": chosen ? "true" : "false" }));
}

// A button kept in its place while it is not offered: what comes after it never moves
// when it comes (a tap must never land where another button just was).
function keptPlace(label) {
  return h("button", { type: "button", class: "kept", text: label, disabled: true, tabindex: "-1", "aria-hidden": "true" });
}

// where the server says the pictures of the page's language are, as drawn now (a table
// kept on the phone from before it said so: the pictures in the browser's language)
function pictureUrl(key) {
  const where = (app.table && app.table.pictures) || "/referee/picture/";
  return where + encodeURIComponent(key) + ".svg"; // a face-down goal's key holds a "?"
}

// chosen: undefined for a card that is not one of a set to choose from
function cardButton(code, rotated, onclick, chosen) {
  const key = app.table.tunnels[code][rotated ? 1 : 0];
  const name = cardName(code, rotated);
  return h("button", { type: "button", class: "card" + (chosen ? " chosen" : ""), onclick, title: name, "data-card": code,
    "aria-pressed": chosen === undefined ? undefined : String(!!chosen) }, h("img", { src: pictureUrl(key), alt: name }));
}

// A card's name in the page's language; a path card turned, by the sides it opens as it lies.
function cardName(code, rotated) {
  const names = app.table.card_names;
  if (!rotated) return names[code] || code;
  return names[code + "~turned"] || _("%(card)s, turned", { card: names[code] || code });
}

function actionCards() { // the action cards (the names hold the path cards too, upright and turned)
  return Object.keys(app.table.card_names).filter((c) => !(c in app.table.tunnels) && !c.includes("~"));
}

const SLOT_AT = { "-2": "top", 0: "middle", 2: "bottom" };

// A cell of the maze as it is read out: what lies there, and where.
function cellName(cell, x, y) {
  let what;
  if (!cell) what = _("empty cell");
  else if (cell.goal) {
    const goal = _(SLOTS[SLOT_AT[y]] || "middle");
    const found = GOAL_CARDS.find((g) => g[0] === cell.card);
    what = cell.face_down || !found ? _("%(goal)s goal, face down", { goal }) : _("%(goal)s goal: %(card)s", { goal, card: _(found[1]) });
  } else if (cell.card === "start") what = _("start card");
  else what = cardName(cell.card, !!cell.picture && cell.picture.split("~")[2] === "1");
  return what + ", " + _("column %(x)d, row %(y)d", { x, y });
}

// -- taps meant for the screen before ---------------------------------------------------------------
//
// A screen drawn anew (SETTLE_MS ago or less) takes no tap that was meant for the one
// before: the second tap of a double tap (its button gone, the next screen's is under
// the finger: Pass, then Draw), nor one whose finger went down on another button than
// the one it lands on. A tap after the settle time is the referee's: taken.
const tapping = { shownAt: 0, down: null, last: null, spaced: null, clicks: 0 };

function controlKey(node) { // the same control on the screen drawn anew: its id, data, words
  if (!node) return "";
  return [node.tagName, node.id, JSON.stringify(Object.assign({}, node.dataset)), node.getAttribute("aria-label") || "",
    node.textContent].join("|");
}

document.addEventListener("pointerdown", (event) => {
  const control = event.target instanceof Element ? event.target.closest("button") : null;
  if (event.button !== 0) { // a right or middle button presses no button of the page's
    tapping.down = null;
    return;
  }
  tapping.down = {
    at: performance.now(), x: event.clientX, y: event.clientY, type: event.pointerType, key: controlKey(control), node: control,
  };
}, true);

// A press and release on one control that the server's answer drew anew in between is no
// click to the browser (the button pressed is gone): a mouse's or a pen's tap, or the
// space bar's press, would be lost. When the browser sends none, the control drawn anew
// is clicked, once, through the same gate as every tap. (A finger's tap is clicked where
// it is lifted, and Enter clicks as it goes down: theirs come.)
function clickedAnew(pressed, key, control, event) {
  if (!pressed || pressed.isConnected || !control || control.disabled || controlKey(control) !== key) return;
  const clicks = tapping.clicks;
  setTimeout(() => {
    if (tapping.clicks !== clicks || !control.isConnected) return; // the browser's own click came, or the screen went on
    control.dispatchEvent(event);
  }, 0);
}

document.addEventListener("pointerup", (event) => {
  const down = tapping.down;
  // a finger's tap is clicked by the browser itself where it is lifted (and its click may
  // come after this task: one made here too would be a second)
  if (!down || event.button !== 0 || event.pointerType === "touch") return;
  const control = event.target instanceof Element ? event.target.closest("#main button") : null;
  const at = { clientX: event.clientX, clientY: event.clientY };
  clickedAnew(down.node, down.key, control,
    new MouseEvent("click", { bubbles: true, cancelable: true, view: window, detail: 1, ...at }));
}, true);

document.addEventListener("keydown", (event) => {
  const control = event.target instanceof Element ? event.target.closest("#main button") : null;
  if (event.key === " " && !event.repeat) tapping.spaced = control ? { node: control, key: controlKey(control) } : null;
}, true);

document.addEventListener("keyup", (event) => {
  const spaced = tapping.spaced;
  if (event.key !== " " || !spaced) return;
  tapping.spaced = null;
  const control = event.target instanceof Element ? event.target.closest("#main button") : null;
  clickedAnew(spaced.node, spaced.key, control, new MouseEvent("click", { bubbles: true, cancelable: true, view: window }));
}, true);

document.addEventListener("click", (event) => {
  const control = event.target instanceof Element ? event.target.closest("#main button") : null;
  if (!control) return;
  tapping.clicks += 1;
  const down = tapping.down;
  tapping.down = null;
  if (strayTap(event, control, down)) {
    event.stopImmediatePropagation();
    event.preventDefault();
    return;
  }
  if (down) tapping.last = { at: down.at, x: down.x, y: down.y };
}, true);

function strayTap(event, control, down) {
  if (app.taking) return true; // the screen is being left for the next one
  if (performance.now() - tapping.shownAt >= SETTLE_MS) return false;
  if (event.detail > 1) return true; // a double tap's second tap
  if (event.detail === 0 || !down) return false; // the keyboard
  if (down.at < tapping.shownAt && down.key !== controlKey(control)) return true; // went down on another button
  const last = tapping.last; // a finger's second tap where the last one was, on a new screen
  return down.type !== "mouse" && last !== null && down.at - last.at < SETTLE_MS && Math.hypot(down.x - last.x, down.y - last.y) < 32;
}

function setStep(change) {
  app.step = Object.assign({}, app.step, change);
  render();
}

function linkStatus() {
  const link = document.getElementById("link");
  const waiting = app.queue.length;
  const stopped = app.queue.length && app.queue[0].stop !== undefined;
  let text;
  let cls = "";
  if (app.online === false) {
    text = waiting ? ngettext("Offline · %(num)s entry waits to be sent", "Offline · %(num)s entries wait to be sent", waiting)
      : _("Offline · keep recording");
    cls = "offline";
  } else if (stopped) {
    text = ngettext("%(num)s entry waits for you", "%(num)s entries wait for you", waiting);
    cls = "stuck";
  } else if (waiting) {
    text = _("Sending %(num)s…", { num: waiting });
  } else if (app.closed) {
    text = _("Online · no table open"); // nothing is recorded through a code that opens none
  } else {
    text = app.online ? _("Online · all recorded") : _("Opening…");
  }
  link.textContent = text;
  link.className = cls;
  link.dataset.waiting = String(waiting);
}

// The page drawn anew. Focus stays where the referee was: on the same control if it is
// still there, on the turn's heading when the turn changed (a screen reader says it) or
// the control is gone; a turn changed without the referee's focus in the page is said
// in a polite live region. The maze stays scrolled where it was, from screen to screen: a
// cell tapped at the right of a phone's screen stays under the finger, and the next turn's
// maze shows the same part of the play, not its left edge.
function render() {
  linkStatus();
  document.body.dataset.taken = String(app.taken);
  document.body.dataset.recorded = String(app.recorded);
  document.body.dataset.finished = String(!!(app.server && app.server.finished));
  const main = document.getElementById("main");
  const focused = document.activeElement;
  const inside = !!focused && focused !== main && main.contains(focused);
  const key = inside ? controlKey(focused) : "";
  const field = inside && "selectionStart" in focused && focused.tagName === "TEXTAREA"
    ? [focused.selectionStart, focused.selectionEnd] : null;
  const heading = document.getElementById("due");
  const turnBefore = heading ? heading.textContent : null;
  const STOPS = "#warning, #conflict, #refused"; // what stops the entries until the referee answers
  const stoppedBefore = !!main.querySelector(STOPS);
  const before = main.innerHTML;
  const scrolled = main.querySelector(".maze"); // the maze scrolled sideways (a phone): kept there
  if (scrolled) app.mazeLeft = scrolled.scrollLeft;
  main.replaceChildren(...page().flat().filter((part) => part !== null && part !== undefined && part !== false));
  // and where the next screen with a maze shows it: a draw, or a turn's choice of card,
  // has none, and the maze came back at its left edge each turn, the play at its right
  const board = main.querySelector(".maze");
  if (board) {
    if (app.mazeLeft) board.scrollLeft = app.mazeLeft;
    offeredInView(board);
    edges(board);
    board.addEventListener("scroll", () => { app.mazeLeft = board.scrollLeft; edges(board); }, { passive: true });
  }
  if (main.innerHTML !== before) tapping.shownAt = performance.now();
  const due = document.getElementById("due");
  const turnChanged = !!due && due.textContent !== turnBefore;
  if (inside) {
    const same = [...main.querySelectorAll("button, select, textarea, input, h1")].find((n) => controlKey(n) === key);
    const formField = same && same.tagName !== "BUTTON" && same.tagName !== "H1";
    // a stop raised by the tap: its first answer, not the turn's heading beneath it (a
    // keyboard went back past the alert to answer it)
    const stop = stoppedBefore ? null : main.querySelector(STOPS);
    const asked = stop && stop.querySelector("button");
    const target = asked || (same && (!turnChanged || formField) ? same : due || main.querySelector("h1") || same);
    if (target) {
      if (target.tagName === "H1" && !target.hasAttribute("tabindex")) target.setAttribute("tabindex", "-1");
      target.focus({ preventScroll: true });
      if (field && target.tagName === "TEXTAREA") target.setSelectionRange(field[0], field[1]);
    }
  } else if (turnChanged && turnBefore !== null) {
    say(due.textContent);
  }
}

function say(words) {
  let region = document.getElementById("said");
  if (!region) {
    region = h("div", { id: "said", class: "unseen", "aria-live": "polite" });
    document.body.append(region);
  }
  region.textContent = words;
}

function page() {
  if (app.held) {
    return [h("h1", { text: _("This table is open in another tab") }),
      h("div", { class: "box warn", role: "alert", id: "held" },
        h("p", { text: _("Record in the tab or window of this browser that opened the table's card first: two would each keep entries of their own, and one could write over the other's. Close that one, and this one takes over.") }))];
  }
  if (app.closed) {
    const closed = [h("h1", { text: _("This card opens no table") }),
      h("p", { text: _("Its code was revoked or mistyped. Ask the organiser for the table's card.") })];
    if (app.queue.length) { // taken on this phone before the code was revoked: named, never lost unsaid
      closed.push(h("div", { class: "box bad", role: "alert", id: "stranded" },
        h("strong", { text: ngettext("Not recorded: %(num)s entry, kept on this phone",
          "Not recorded: %(num)s entries, kept on this phone", app.queue.length) }),
        h("ol", {}, app.queue.map((e) => h("li", { text: e.said }))),
        h("p", { text: _("This card records nothing more: open the table's new card and enter them again.") })));
    }
    return closed;
  }
  if (!app.table) {
    return [h("p", { text: app.online === false ? _("The server cannot be reached yet: this page tries again.") : _("Opening the table…") })];
  }
  const t = app.table;
  document.getElementById("where").textContent = _("Table %(table)s · %(tournament)s · round %(round)s",
    { table: isolated(t.table || ""), tournament: isolated(t.tournament_name), round: t.round || "" });
  const parts = [];
  if (app.problem) parts.push(h("div", { class: "box bad", role: "alert" }, h("span", { text: app.problem }), " ",
    button(_("OK"), () => { app.problem = ""; render(); })));
  if (!app.server) {
    parts.push(h("h1", { text: _("Table %(table)s", { table: isolated(t.table || "") }) }));
    parts.push(h("ol", {}, t.seats.map((s) => h("li", { text: isolated(s.name) }))));
    if (t.stored) parts.push(h("p", { class: "box", text: _("This table's game is stored: there is nothing more to record.") }));
    else parts.push(button(_("Begin recording"), begin, { class: "primary", id: "begin" }));
    return parts;
  }
  const state = predict(app.server, app.queue);
  parts.push(...stopped());
  const due = state.due;
  const turn = askingServer(state) ? _("What happened next?") : state.guessed ? dueWords(due) : due.words;
  parts.push(h("h1", { id: "due", tabindex: "-1", text: turn }));
  parts.push(seats(state));
  if (!state.finished) parts.push(...panel(state));
  else {
    parts.push(h("div", { class: "box", id: "stored" },
      h("p", { text: state.upload ? _("The game's log is stored (upload %(upload)s): the standings count it.", { upload: state.upload })
        : _("The game's log is stored: the standings count it.") }),
      h("a", { href: API + "log?code=" + encodeURIComponent(CODE), download: "", id: "download", text: _("Download the game's log") })));
  }
  parts.push(h("div", { class: "row" },
    button(_("Undo the last entry"), undo, { id: "undo", disabled: state.lines <= 1 || state.finished }),
    button(_("Note an incident"), () => setStep({ kind: "note" }), { disabled: state.finished })));
  // said beneath the buttons, never above them: the network coming and going must not
  // move a button under the referee's finger (the header says it too)
  if (state.guessed && app.online === false) {
    parts.push(h("p", { class: "muted", text: _("Offline: the rules look at these entries when they are sent; the next turn is guessed meanwhile.") }));
  }
  parts.push(...notices(state)); // what the rules found in entries made offline: beneath too
  parts.push(h("h2", { text: _("Last entries") }));
  const waitingWords = app.queue.map((e) => e.said).reverse();
  parts.push(h("ol", { class: "recent" },
    waitingWords.map((w) => h("li", { class: "waiting", text: _("%(entry)s (waiting to be sent)", { entry: w }) })),
    app.server.recent.map((w) => h("li", { text: w }))));
  return parts;
}

function stopped() {
  const head = app.queue[0];
  if (!head || head.stop === undefined) return [];
  if (head.stop === "warning") {
    return [h("div", { class: "box warn", role: "alert", id: "warning" },
      h("strong", { text: _("The rules say:") + " " }), h("span", { text: head.said }),
      h("ul", {}, head.findings.map((f) => h("li", { text: f }))),
      button(_("It happened: record it"), () => decide("record"), { id: "record-anyway" }),
      button(_("Change it"), () => decide("drop"), { id: "change-it" }))];
  }
  if (head.stop === "conflict") {
    const mine = app.queue.map((e) => e.said);
    return [h("div", { class: "box bad", role: "alert", id: "conflict" },
      h("strong", { text: _("Another phone recorded this table first.") }),
      h("p", { text: _("Recorded there:") }),
      h("ul", {}, head.theirs.map((w) => h("li", { text: w })),
        head.undone ? h("li", { text: ngettext("%(num)s entry taken back", "%(num)s entries taken back", head.undone) }) : null),
      h("p", { text: _("On this phone, not recorded:") }),
      h("ul", {}, mine.map((w) => h("li", { text: w }))),
      button(_("Record mine after theirs"), () => decide("after"), { id: "mine-after" }),
      button(_("Drop mine"), () => decide("drop-all"), { id: "drop-mine" }))];
  }
  if (head.stop === "closed") return [];
  return [h("div", { class: "box bad", role: "alert", id: "refused" },
    h("strong", { text: _("Not recorded:") + " " }), h("span", { text: head.said }),
    h("p", { text: head.problem }), button(_("Drop it"), () => decide("drop"), { id: "drop-it" }))];
}

function notices(state) {
  if (!app.notices.length) return [];
  return [h("div", { class: "box warn", id: "findings" },
    h("strong", { text: _("The rules found, in entries recorded while offline:") }),
    h("ul", {}, app.notices.map((n) => h("li", {}, h("span", { text: n.said + ": " + n.findings.join("; ") })))),
    h("div", { class: "row" },
      button(_("Undo the last entry"), undo, { disabled: state.lines <= 1 }),
      button(_("Seen"), async () => { app.notices = []; await save(); render(); })))];
}

function seats(state) {
  const due = state.due || {};
  return h("div", { class: "players" }, players().map((p) => {
    const held = state.hands && state.hands[p] !== undefined ? state.hands[p] : null;
    const tools = (state.broken[p] || []).map((tool) => _(TOOL_WORDS[tool] || tool)).join(", ");
    const broken = tools ? " · " + _("broken: %(tools)s", { tools }) : "";
    // the count is a bare number to the eye ("Bob · 5"): a screen reader says what it counts
    const count = held === null ? null : [h("span", { "aria-hidden": "true", text: ` · ${held}` }),
      h("span", { class: "unseen", text: ", " + ngettext("%(num)s card in hand", "%(num)s cards in hand", held, { num: held }) })];
    return h("span", { class: p === due.player ? "due" : "" }, nameOf(p), count, broken);
  }), h("span", { text: _("pile · %(num)s", { num: state.pile }) }));
}

function panel(state) {
  const step = app.step;
  if (step.kind === "note") return notePanel();
  if (step.kind === "end_round" || state.due.kind === "round_end" && !step.kind) return endPanel(state);
  if (step.kind === "deal" || state.due.kind === "round" && !step.kind) return dealPanel(state);
  // a goal left face down (as it happened): the turn goes on, the rules' word on it comes from the server
  if (step.kind === "reveal" || state.due.kind === "reveal" && !step.kind && !step.faceDown) return revealPanel(state);
  if (state.due.kind === "game_end" && !step.kind) {
    return [button(_("Record the end of the game"), () => take({ kind: "end_game" }, _("the end of the game")), { class: "primary", id: "end-game" })];
  }
  if (state.due.kind === "over") {
    const ready = app.queue.length === 0 && app.online !== false;
    return [button(_("Store the game's log"), finish, { class: "primary", id: "finish", disabled: !ready }),
      ready ? null : h("p", { class: "muted", text: _("The game is stored once every entry is sent.") })];
  }
  return turnPanel(state);
}

function more(state) {
  // no deal after the game's last round: the game has no round after it (a round 4 of 3
  // offered here was recorded, and the audit found it malformed)
  const later = !app.table || !app.table.rounds || state.round < app.table.rounds;
  return h("div", { class: "row" },
    button(_("A goal turned up"), () => setStep({ kind: "reveal" })),
    button(_("The round is over"), () => setStep({ kind: "end_round" })),
    later ? button(_("Deal a round"), () => setStep({ kind: "deal" })) : null);
}

function turnPanel(state) {
  const due = state.due;
  const step = app.step;
  // a goal left face down: its placer draws next, or with the pile empty whoever plays
  const drawDue = due.kind === "draw" || due.kind === "reveal" && step.faceDown && state.pile > 0;
  const player = step.player || (due.kind === "reveal" && !drawDue ? undefined : due.player);
  const parts = [];
  if (!player || step.kind === "player") {
    // a card without the draw due before it (as it happened): the same player's second card
    // in the turn is theirs to record too, so the draw is not offered again for it
    parts.push(h("p", { text: _("Who plays?") }), h("div", { class: "row" },
      players().map((p) => button(nameOf(p), () => setStep({ kind: undefined, player: p, noDraw: drawDue }), { "data-player": p }))));
    parts.push(more(state));
    return parts;
  }
  if (drawDue && !step.kind && !step.noDraw && player === due.player) {
    const draws = _("%(player)s draws a card", { player: nameOf(player) });
    parts.push(askingServer(state)
      ? button(_("Does the path reach a goal? The server answers…"), null, { class: "primary", id: "draw-waits", disabled: true })
      : button(draws, () => take({ kind: "event", event: { type: "draw", player, card: null } }, draws), { class: "primary", id: "draw" }));
    parts.push(h("div", { class: "row" }, button(_("No draw: the next turn"), () => setStep({ kind: "player" }), { id: "no-draw" })));
    parts.push(more(state));
    return parts;
  }
  if (!step.kind) {
    parts.push(h("div", { class: "row" },
      button(_("Path card"), () => setStep({ kind: "path", player }), { id: "kind-path" }),
      button(_("Action card"), () => setStep({ kind: "action", player }), { id: "kind-action" }),
      button(_("Pass"), () => take({ kind: "event", event: { type: "discard", player, card: null } },
        _("%(player)s passes", { player: nameOf(player) })), { id: "kind-pass" }),
      button(_("Another player"), () => setStep({ kind: "player" }))));
    parts.push(maze(state, {}));
    parts.push(more(state));
    return parts;
  }
  parts.push(h("div", { class: "row" }, button(_("Back"), () => { app.step = {}; render(); })));
  if (step.kind === "path") return parts.concat(pathPanel(state, player));
  return parts.concat(actionPanel(state, player));
}

// A path card laid beside a goal still face down, its answer on its way: the server says
// whether a goal is to be turned up before the draw, which is not offered until then
// (offline, or the queue stopped, the draw is offered: "A goal turned up" is beside it).
function askingServer(state) {
  return !!state.guessed && !!state.nearGoal && state.due.kind === "draw" && app.online === true
    && app.queue.length > 0 && app.queue[0].stop === undefined;
}

function bounds(cells, extra) {
  const xs = [0, 8, ...cells.map((c) => c.x)];
  const ys = [-2, 2, ...cells.map((c) => c.y)];
  if (extra) { xs.push(extra[0]); ys.push(extra[1]); }
  return [Math.min(...xs) - 1, Math.max(...xs) + 1, Math.min(...ys) - 1, Math.max(...ys) + 1];
}

function freeCells(state) { // offline, or "as it happened": every free cell shown, the rules' word comes from the server
  const [x0, x1, y0, y1] = bounds(state.maze);
  const taken = new Set(state.maze.map((c) => c.x + "," + c.y));
  const free = [];
  for (let y = y0; y <= y1; y++) {
    for (let x = x0; x <= x1; x++) if (!taken.has(x + "," + y)) free.push([x, y, false]);
  }
  return free;
}

function allCells(state) { // every cell shown, taken or free
  const [x0, x1, y0, y1] = bounds(state.maze);
  const all = [];
  for (let y = y0; y <= y1; y++) for (let x = x0; x <= x1; x++) all.push([x, y]);
  return all;
}

// The maze is one stop of the keyboard's Tab (the WAI-ARIA grid's roving tabindex): the
// cells that may be tapped are buttons, only one of them in the Tab order — the cell
// chosen, else the one the keyboard was last on, else the first — and the arrow keys go
// from one to the next in their direction (Home and End to the row's first and last,
// with Ctrl the maze's); Enter or Space chooses, Tab goes on to what follows. With every
// free cell offered ("Another cell"), Record was 72 presses of Tab past the maze's first cell.
function maze(state, marks, onCell, picked) {
  const [x0, x1, y0, y1] = bounds(state.maze, picked);
  const at = new Map(state.maze.map((c) => [c.x + "," + c.y, c]));
  const choosing = onCell && Object.keys(marks).length > 0; // cells not offered are drawn as such
  const tappable = (key) => !!(onCell && marks[key]);
  const focused = document.activeElement;
  const kept = focused && focused.closest && focused.closest(".maze") ? focused.dataset.cell : null; // drawn anew
  const chosen = picked ? picked[0] + "," + picked[1] : null;
  let stop = [chosen, kept].find((key) => key && tappable(key)) || null;
  const grid = h("div", { class: "maze" + (choosing ? " choosing" : ""), style: `grid-template-columns: repeat(${x1 - x0 + 1}, 1fr)`,
    onkeydown: (event) => mazeKey(grid, event), onfocusin: (event) => rove(grid, event.target) });
  for (let y = y0; y <= y1; y++) {
    for (let x = x0; x <= x1; x++) {
      const key = x + "," + y;
      const cell = at.get(key);
      const mark = marks[key];
      const cls = "cell" + (mark ? " mark" : "") + (picked && picked[0] === x && picked[1] === y ? " picked" : "");
      const name = cellName(cell, x, y);
      const props = { type: "button", class: cls, "data-cell": key, title: name, "aria-label": name, disabled: !mark };
      if (tappable(key)) {
        stop = stop || key;
        props.onclick = () => onCell(x, y);
        props.tabindex = key === stop ? "0" : "-1";
      }
      const node = h("button", props);
      if (cell && cell.picture) node.append(h("img", { src: pictureUrl(cell.picture), alt: "" }));
      else if (cell) node.textContent = cell.face_down ? "?" : cell.card;
      grid.append(node);
    }
  }
  return h("div", { class: "maze-frame" }, grid);
}

// Whether the maze runs past its frame on either side (a phone 360 px wide shows six of
// its eleven columns, and hides its scrollbar until a swipe): a shade at that edge says
// there is more to swipe to, the goals' column often among it.
function edges(board) {
  const frame = board.parentElement;
  frame.classList.toggle("more-left", board.scrollLeft > 1);
  frame.classList.toggle("more-right", board.scrollLeft + board.clientWidth < board.scrollWidth - 1);
}

// Where the maze was kept scrolled shows none of the cells offered (a phone shows six of
// its eleven columns; the play went on by the goals): the nearest one offered is brought
// to the middle, as a referee would swipe to it.
function offeredInView(board) {
  const marks = [...board.querySelectorAll(".cell.mark")];
  if (!marks.length) return;
  const frame = board.getBoundingClientRect();
  const boxes = marks.map((mark) => mark.getBoundingClientRect());
  if (boxes.some((box) => box.right > frame.left + 1 && box.left < frame.right - 1)) return;
  const middle = (frame.left + frame.right) / 2;
  const off = (box) => box.left + box.width / 2 - middle; // how far a cell's middle is from the frame's
  const nearest = boxes.reduce((a, b) => (Math.abs(off(a)) <= Math.abs(off(b)) ? a : b));
  board.scrollLeft += off(nearest);
}

// The cell the keyboard is on is the maze's one stop of Tab.
function rove(grid, target) {
  if (!(target instanceof HTMLElement) || !target.hasAttribute("tabindex") || !target.dataset.cell) return;
  for (const cell of grid.querySelectorAll("button.cell[tabindex]")) cell.tabIndex = cell === target ? 0 : -1;
}

const ARROWS = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };

// The cell an arrow key goes to: the next in its direction in the same row (column),
// else the nearest in that direction in the rows (columns) beside it; none, it stays.
function mazeKey(grid, event) {
  const from = event.target;
  if (!(from instanceof HTMLElement) || !from.dataset.cell || event.altKey || event.metaKey) return;
  const place = (node) => node.dataset.cell.split(",").map(Number);
  const cells = [...grid.querySelectorAll("button.cell[tabindex]")].map((node) => [node, ...place(node)]);
  const [x, y] = place(from);
  let next = null;
  const step = ARROWS[event.key];
  if (step && !event.ctrlKey && !event.shiftKey) {
    const [dx, dy] = step;
    let best = null;
    for (const [node, cx, cy] of cells) {
      const ahead = dx ? (cx - x) * dx : (cy - y) * dy; // how far in the key's direction
      const aside = dx ? Math.abs(cy - y) : Math.abs(cx - x); // how far off its row (column)
      if (ahead <= 0) continue;
      if (!best || aside < best[1] || (aside === best[1] && ahead < best[2])) best = [node, aside, ahead];
    }
    next = best && best[0];
  } else if ((event.key === "Home" || event.key === "End") && !event.shiftKey) {
    const row = event.ctrlKey ? cells : cells.filter(([, , cy]) => cy === y); // in the page's order: row by row
    const end = event.key === "Home" ? row[0] : row[row.length - 1];
    next = end && end[0];
  } else {
    return;
  }
  event.preventDefault(); // the page (or the maze's frame) does not scroll under it
  if (next && next !== from) next.focus();
}

function pathPanel(state, player) {
  const step = app.step;
  const parts = [h("p", { text: _("Which path card?") }), h("div", { class: "row" },
    Object.keys(app.table.tunnels).map((code) => cardButton(code, false,
      () => setStep({ card: code, cell: undefined, rotated: false }), step.card === code)))];
  if (!step.card) return parts;
  // the cells the server counted are a turn's; a card laid while a draw or a goal is due
  // (as it happened) may go to any free cell, the rules' word coming before it is recorded
  const legal = state.due && state.due.kind === "turn" ? state.legal : null;
  const places = legal && !step.anywhere ? legal[step.card] || [] : freeCells(state);
  const marks = {};
  for (const [x, y, rotated] of places) (marks[x + "," + y] = marks[x + "," + y] || []).push(rotated);
  // the board first, what is said of it and "Another cell" beneath, each in a place of its
  // own whether the cells are the server's or guessed: the server's answer arriving while
  // the referee taps changes the cells offered, never where the board is
  parts.push(maze(state, marks, (x, y) => {
    const ways = marks[x + "," + y] || [false];
    setStep({ cell: [x, y], rotated: ways.includes(step.rotated) ? step.rotated : ways[0] });
  }, step.cell));
  parts.push(h("p", { class: "muted hint", text: step.anywhere
    ? _("Every free cell: the rules say what they make of it before it is recorded.")
    : legal
      ? (places.length ? _("Tap where it is laid (the cells it fits are marked).") : _("It fits nowhere by the rules."))
      : _("Tap where it is laid: the rules check it when it is sent.") }));
  const another = _("Another cell (as it happened)");
  parts.push(legal && !step.anywhere ? button(another, () => setStep({ anywhere: true, cell: undefined }), { id: "any-cell" }) : keptPlace(another));
  if (step.cell) {
    const [x, y] = step.cell;
    parts.push(h("div", { class: "row" }, cardButton(step.card, step.rotated, () => setStep({ rotated: !step.rotated })),
      button(_("Turn it"), () => setStep({ rotated: !step.rotated }), { id: "turn" })));
    const laid = { player: nameOf(player), card: app.table.card_names[step.card] || step.card, cell: `${x},${y}` };
    const said = step.rotated ? _("%(player)s lays %(card)s, turned, at %(cell)s", laid) : _("%(player)s lays %(card)s at %(cell)s", laid);
    parts.push(button(_("Record: %(entry)s", { entry: said }), () => take({ kind: "event", event: { type: "play_path", player, card: step.card, x, y,
      rotated: !!step.rotated } }, said), { class: "primary", id: "record" }));
  }
  return parts;
}

function actionPanel(state, player) {
  const step = app.step;
  const actions = actionCards();
  const parts = [h("p", { text: _("Which action card?") }), h("div", { class: "row" },
    actions.map((code) => choice(app.table.card_names[code], () => setStep({ card: code, target: undefined, tool: undefined,
      cell: undefined, slot: undefined, anywhere: undefined }), step.card === code, { "data-card": code })))];
  const card = step.card;
  if (!card) return parts;
  const named = app.table.card_names[card];
  if (card === "map") {
    parts.push(h("p", { text: _("Which goal does the map show?") }), h("div", { class: "row" },
      ["top", "middle", "bottom"].map((slot) => button(_(SLOTS[slot]), () => take({ kind: "event", event: { type: "play_map", player, card, goal: slot } },
        _("%(player)s looks at the %(goal)s goal", { player: nameOf(player), goal: _(SLOTS[slot]) })), { "data-slot": slot }))));
    return parts;
  }
  if (card === "rockfall") {
    // the path cards it may take away; "as it happened", every cell (the start, a goal, an
    // empty one): the rules' word on it comes from the server before it is recorded
    const marks = {};
    const cells = step.anywhere ? allCells(state) : state.maze.filter((c) => !c.goal && !(c.x === 0 && c.y === 0)).map((c) => [c.x, c.y]);
    cells.forEach(([x, y]) => { marks[x + "," + y] = [false]; });
    parts.push(h("p", { text: _("Tap the path card it takes away.") }), maze(state, marks, (x, y) =>
      take({ kind: "event", event: { type: "play_rockfall", player, card, x, y } },
        _("%(player)s lays a rockfall at %(cell)s", { player: nameOf(player), cell: `${x},${y}` }))));
    if (!step.anywhere) parts.push(button(_("Another cell (as it happened)"), () => setStep({ anywhere: true }), { id: "any-cell" }));
    return parts;
  }
  parts.push(h("p", { text: _("%(card)s: at whom?", { card: named }) }), h("div", { class: "row" },
    players().map((p) => choice(nameOf(p), () => setStep({ target: p }), step.target === p, { "data-target": p }))));
  if (!step.target) return parts;
  const tools = app.table.tools[card] || [];
  if (card.startsWith("repair_") && tools.length > 1) {
    parts.push(h("p", { text: _("Which tool is mended?") }), h("div", { class: "row" },
      tools.map((t) => choice(_(TOOL_WORDS[t] || t), () => setStep({ tool: t }), step.tool === t))));
    if (!step.tool) return parts;
  }
  const event = { type: "play_tool", player, card, target: step.target };
  if (step.tool) event.tool = step.tool;
  const said = _("%(player)s plays %(card)s on %(target)s", { player: nameOf(player), card: named, target: nameOf(step.target) });
  parts.push(button(_("Record: %(entry)s", { entry: said }), () => take({ kind: "event", event }, said), { class: "primary", id: "record" }));
  return parts;
}

function revealPanel(state) {
  const step = app.step;
  const slots = state.due.kind === "reveal" && state.due.slots && state.due.slots.length ? state.due.slots : ["top", "middle", "bottom"];
  const slot = step.slot || (slots.length === 1 ? slots[0] : undefined);
  const parts = [h("p", { text: _("Which goal is turned up?") }), h("div", { class: "row" },
    slots.map((s) => choice(_(SLOTS[s] || s), () => setStep({ kind: "reveal", slot: s }), slot === s)))];
  if (!slot) return parts.concat(cancel());
  parts.push(h("p", { text: _("What does it show?") }), h("div", { class: "row" },
    GOAL_CARDS.map(([card, words]) => choice(_(words), () => setStep({ kind: "reveal", slot, card }), step.card === card, { "data-goal": card }))));
  if (step.card) {
    // the ways the card may lie and join the path (R-G2), as the server counts them; none
    // known (a goal no path reaches, or offline), both are offered
    const known = ((state.due.ways || {})[slot] || {})[step.card];
    const ways = known && known.length ? known : [false, true];
    const rotated = ways.includes(!!step.rotated) ? !!step.rotated : ways[0];
    if (ways.length > 1) {
      parts.push(h("div", { class: "row" }, button(rotated ? _("Lies turned: tap to lay it upright") : _("Lies upright: tap if it lies turned"),
        () => setStep({ rotated: !rotated }))));
    } else {
      parts.push(h("p", { class: "muted", text: rotated ? _("It lies turned: the only way it joins the path") : _("It lies upright: the only way it joins the path") }));
    }
    const said = _("the %(goal)s goal is turned up: %(card)s",
      { goal: _(SLOTS[slot] || slot), card: _(GOAL_CARDS.find((g) => g[0] === step.card)[1]) });
    parts.push(button(_("Record: %(entry)s", { entry: said }), () => take({ kind: "event", event: { type: "goal_revealed", goal: slot, rotated,
      card: step.card } }, said), { class: "primary", id: "record" }));
  }
  if (state.due.kind === "reveal" && !step.kind) {
    parts.push(button(_("It stays face down (as it happened)"), () => setStep({ kind: undefined, slot: undefined, card: undefined, faceDown: true }),
      { id: "face-down" }));
  }
  return parts.concat(cancel());
}

function cancel() {
  return app.step.kind ? [button(_("Back"), () => { app.step = {}; render(); })] : [];
}

function dealPanel(state) {
  const step = app.step;
  const number = state.due.kind === "round" ? (state.due.round || state.round) : state.round + 1;
  const tournament = app.table.ruleset === "tournament";
  const parts = [app.step.kind ? h("h2", { text: _("Deal round %(round)s", { round: number }) }) : null,
    h("p", { text: _("Who starts?") }), h("div", { class: "row" },
    players().map((p) => choice(nameOf(p), () => setStep({ kind: "deal", start: p }), step.start === p, { "data-start": p })))];
  if (tournament) {
    const turned = step.turned || [];
    parts.push(h("p", { text: _("The setup card (R-S7), and the action cards turned over before it:") }));
    parts.push(h("div", { class: "row" }, actionCards().map((c) =>
      button("+ " + app.table.card_names[c], () => setStep({ kind: "deal", turned: [...turned, c] })))));
    if (turned.length) parts.push(h("p", { class: "muted", text: _("Turned over: %(cards)s", { cards: turned.map((c) => app.table.card_names[c]).join(", ") }) }),
      button(_("None after all"), () => setStep({ kind: "deal", turned: [] })));
    parts.push(h("div", { class: "row" }, Object.keys(app.table.tunnels).map((code) =>
      cardButton(code, step.setupTurned, () => setStep({ kind: "deal", setup: code }), step.setup === code))));
    if (step.setup) parts.push(button(_("Turn it"), () => setStep({ kind: "deal", setupTurned: !step.setupTurned })));
  }
  const ready = step.start && (!tournament || step.setup);
  const setup = tournament && step.setup ? { card: step.setup, rotated: !!step.setupTurned, turned_over: [...(step.turned || []), step.setup] } : null;
  parts.push(button(_("Deal round %(round)s", { round: number }), () => take({ kind: "event", event: { type: "round_started", round: number,
    start_player: step.start, roles: null, set_aside_role: null, goals: null, setup_card: setup, hands: null, draw_pile: null } },
  _("round %(round)s is dealt; %(player)s starts", { round: number, player: nameOf(step.start) })), { class: "primary", id: "deal", disabled: !ready }));
  return parts.concat(cancel());
}

function endPanel(state) {
  const step = app.step;
  const roles = step.roles || {};
  const gold = step.gold || {};
  const base = app.table.ruleset === "base";
  const choices = base ? ROLES.slice(0, 2) : ROLES;
  const parts = [h("h2", { text: _("Round %(round)s is over: turn up the roles", { round: state.round }) })];
  for (const p of players()) {
    parts.push(h("div", { class: "row" }, h("strong", { text: nameOf(p) + ": " }),
      choices.map(([role, words]) => choice(_(words), () => { app.scoring = null; setStep({ kind: "end_round", roles: { ...roles, [p]: role } }); },
        roles[p] === role, { "data-role": p + ":" + role }))));
    if (base) {
      parts.push(h("div", { class: "row" }, [1, 2, 3].map((v) => button(_("+%(num)s gold", { num: v }), () => {
        app.scoring = null; setStep({ kind: "end_round", gold: { ...gold, [p]: [...(gold[p] || []), v] } });
      })), button(_("none"), () => { app.scoring = null; setStep({ kind: "end_round", gold: { ...gold, [p]: [] } }); }),
      h("span", { class: "muted", text: _("taken: %(cards)s", { cards: (gold[p] || []).join(", ") || _("none") }) })));
    }
  }
  const ready = players().every((p) => roles[p]);
  if (!ready) return parts.concat([h("p", { class: "muted", text: _("Tap every player's role as it is turned up.") })], cancel());
  const goldCards = base ? Object.fromEntries(players().map((p) => [p, gold[p] || []])) : null;
  if (app.scoring) {
    const s = app.scoring;
    parts.push(h("div", { class: "box", id: "scores" }, h("strong", { text: s.said || "" }),
      s.scores ? h("ul", {}, players().map((p) => h("li", { text: `${nameOf(p)}: ${s.scores[p]}` }))) : null));
  } else {
    parts.push(button(_("Count the scores"), () => countScores(roles, goldCards), { id: "count" }));
  }
  parts.push(button(_("Record the end of round %(round)s", { round: state.round }), () => take({ kind: "end_round", roles, gold_cards: goldCards },
    _("the end of round %(round)s", { round: state.round })), { class: "primary", id: "end-round" }));
  return parts.concat(cancel());
}

function notePanel() {
  const step = app.step;
  const text = h("textarea", { maxlength: "500", rows: "3", style: "width:100%", id: "note-text" });
  text.value = step.note || "";
  text.addEventListener("input", () => { app.step.note = text.value; });
  const kind = h("select", { id: "note-kind" }, NOTES.map((n) => h("option", { value: n, text: _(NOTE_WORDS[n]) })));
  kind.value = step.error || "other";
  kind.addEventListener("change", () => { app.step.error = kind.value; });
  const who = h("select", { id: "note-player" }, h("option", { value: "", text: _("nobody in particular") }),
    players().map((p) => h("option", { value: p, text: nameOf(p) })));
  who.value = step.notePlayer || "";
  who.addEventListener("change", () => { app.step.notePlayer = who.value; });
  const label = (words, field) => h("label", { class: "field", for: field, text: words });
  return [h("h2", { text: _("Note an incident (R-C1)") }), label(_("Player"), "note-player"), who,
    label(_("What happened"), "note-kind"), kind, label(_("Note"), "note-text"), text,
    button(_("Record the note"), () => {
      const player = app.step.notePlayer || null;
      take({ kind: "event", event: { type: "referee_note", player, error: app.step.error || "other", note: (app.step.note || "").slice(0, 500) } },
        _("a note: %(note)s", { note: _(NOTE_WORDS[app.step.error || "other"]) }));
    }, { class: "primary", id: "record-note" }), ...cancel()];
}

// -- the network comes and goes ---------------------------------------------------------------------

window.addEventListener("online", () => { app.failures = 0; pump(); refresh(); });
window.addEventListener("offline", () => { app.online = false; render(); });
window.addEventListener("resize", () => { const board = document.querySelector(".maze"); if (board) edges(board); });
say(""); // the live region there before anything is said in it
if ("serviceWorker" in navigator) navigator.serviceWorker.register("/referee/sw.js", { scope: "/referee" }).catch(() => {});
openTable();
