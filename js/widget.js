// klondike-widget front end: draws what Python publishes, sends intents back.
// No rules live here: the legal moves come from the `view` trait, every text from `strings`.
// Plain ES module, no framework, no build step. Per-view state (selection, drag, focus,
// animation) stays in this file; everything else is in traits written by Python.

/**
 * @typedef {[number, string, string]} LegalMove  [card count, target pile id, move text]
 * @typedef {{src: string, n: number, dst: string, text: string}} Hint
 * @typedef {{
 *   seq: number, deal: string|null, draw: number, stock: number, waste: number[], wn: number,
 *   found: (number|null)[], cols: [number, number[]][], legal: Object<string, LegalMove[]>,
 *   moves: number, undo: boolean, redo: boolean, status: string, analysis: string|null,
 *   finish: string|null, hint: Hint|null, clock: {ms: number, at: number, run: boolean},
 *   announce: {n: number, text: string}|null, line: LineStep|null, lines: boolean,
 *   score: {mode: string, value: number, total: number|null}|null,
 *   quick: Object<string, [number, string][]>, auto_complete: boolean
 * }} View
 * @typedef {{id: number, k: number, total: number, auto: boolean, playable: boolean,
 *   next: {src: string, n: number, dst: string}|null}} LineStep  view.line: the step shown
 * @typedef {{id: number, moves: string, first: number, words: string[], title?: string,
 *   play?: string}} LineView  the `line_view` trait: every move in notation, words for moves
 *   first.. first+words.length-1; a game review names its own title and "play" button keys
 * @typedef {{src: string, n: number}} Pick
 * @typedef {{meta: Object<string, any>, strings: Object<string, string>, rules: any,
 *   cards: string[], available: {code: string, name: string, dir: string}[]}} Strings
 */

const SUITS = ["c", "d", "h", "s"];
const FOUNDATIONS = SUITS.map((s) => "f" + s);
const COLUMNS = [1, 2, 3, 4, 5, 6, 7].map((i) => "t" + i);
/** Pile ids in keyboard order: the top row, then the columns. */
const PILES = ["s", "w", ...FOUNDATIONS, ...COLUMNS];
const PACES = [
  ["settings.animation.slow", 800],
  ["settings.animation.normal", 300],
  ["settings.animation.fast", 80],
  ["settings.animation.off", 0],
];
const DRAG_THRESHOLD = 5;
/** Autoplay paces of the analysis panel (ms per step). */
const STEP_PACES = [
  ["settings.animation.slow", 1500],
  ["settings.animation.normal", 700],
  ["settings.animation.fast", 250],
];

let instance = 0;

/**
 * Create an element with a class list and attributes.
 * @param {string} tag
 * @param {string} [cls]
 * @param {Object<string, string>} [attrs]
 * @returns {HTMLElement}
 */
function h(tag, cls, attrs) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (attrs) for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  return e;
}

class Board {
  /**
   * @param {any} model
   * @param {HTMLElement} el
   */
  constructor(model, el) {
    this.model = model;
    this.el = el;
    this.cid = `kw${++instance}-${Math.random().toString(36).slice(2, 8)}`;
    /** @type {Pick|null} */
    this.pick = null;
    /** @type {string} */
    this.focusPile = "s";
    this.lastSeq = -1;
    this.lastAnnounce = -1;
    this.lastNotice = 0;
    this.drag = null;
    this.noticeTimer = 0;
    this.pendingSince = 0;
    this.panel = ""; // "", "rules", "deal", "confirm"
    this.confirmAction = null;
    /** @type {Object<string, string>|null} */
    this.pileKeys = null;
    /** @type {View|null} */
    this.lastView = null;
    /** @type {{key: string, at: number}|null} */
    this.lastTap = null;
    this.build();
    this.extras = new PlayExtras(this);
    this.onChange = () => this.render();
    this.onStrings = () => {
      this.renderChrome();
      this.render(true);
    };
    this.onMsg = (/** @type {any} */ msg) => this.onCustom(msg);
    model.on("change:view", this.onChange);
    model.on("change:strings", this.onStrings);
    model.on("change:deck", this.onChange);
    model.on("change:locale", this.onStrings);
    model.on("change:mirror", this.onChange);
    model.on("change:draw", this.onStrings);
    model.on("change:pace", this.onStrings);
    this.onLine = () => this.renderLine(true);
    model.on("change:line_view", this.onLine);
    model.on("change:step_pace", this.onLine);
    model.on("msg:custom", this.onMsg);
    this.tick = setInterval(() => this.renderClock(), 1000);
    this.renderChrome();
    this.render(true);
    this.lastAnnounce = this.view().announce ? this.view().announce.n : -1;
  }

  destroy() {
    this.extras.destroy();
    clearInterval(this.tick);
    clearTimeout(this.noticeTimer);
    this.model.off("change:view", this.onChange);
    this.model.off("change:strings", this.onStrings);
    this.model.off("change:deck", this.onChange);
    this.model.off("change:locale", this.onStrings);
    this.model.off("change:mirror", this.onChange);
    this.model.off("change:draw", this.onStrings);
    this.model.off("change:pace", this.onStrings);
    this.model.off("change:line_view", this.onLine);
    this.model.off("change:step_pace", this.onLine);
    this.model.off("msg:custom", this.onMsg);
  }

  // -- data ------------------------------------------------------------------------------

  /** @returns {View} */
  view() {
    return this.model.get("view");
  }

  /** @returns {Strings} */
  strs() {
    return this.model.get("strings") || { meta: {}, strings: {}, rules: null, cards: [], available: [] };
  }

  /**
   * The text of `key` in the active language with `{name}` filled from `args`.
   * @param {string} key
   * @param {Object<string, any>} [args]
   */
  t(key, args) {
    const table = this.strs().strings || {};
    let text = table[key];
    if (text === undefined) text = key;
    if (!args) return text;
    return text.replace(/\{(\w+)\}/g, (m, name) => {
      if (!(name in args)) return m;
      const v = args[name];
      return typeof v === "number" ? this.num(v) : String(v);
    });
  }

  /**
   * A plural text: `key_<category>` chosen by Intl.PluralRules for `count`.
   * @param {string} key
   * @param {number} count
   * @param {Object<string, any>} [args]
   */
  tp(key, count, args) {
    const table = this.strs().strings || {};
    let cat = "other";
    try {
      cat = new Intl.PluralRules(this.lang()).select(count);
    } catch (e) {
      /* unknown locale: "other" */
    }
    const full = `${key}_${cat}` in table ? `${key}_${cat}` : `${key}_other`;
    return this.t(full, Object.assign({ count }, args || {}));
  }

  lang() {
    return this.model.get("locale") || "en";
  }

  /** @param {number|bigint} n */
  num(n) {
    const meta = this.strs().meta || {};
    const opts = meta.numbering ? { numberingSystem: meta.numbering } : {};
    try {
      return new Intl.NumberFormat(this.lang(), opts).format(n);
    } catch (e) {
      return String(n);
    }
  }

  /** @param {string} deal */
  dealNum(deal) {
    try {
      return this.num(BigInt(deal));
    } catch (e) {
      return deal;
    }
  }

  rtl() {
    const meta = this.strs().meta || {};
    return meta.dir === "rtl";
  }

  /** @param {string} src @param {number} n @returns {LegalMove[]} */
  movesFrom(src, n) {
    const list = (this.view().legal || {})[src] || [];
    return list.filter((m) => m[0] === n);
  }

  /**
   * Send an intent, stamped with the state it was made against.
   * @param {string} kind
   * @param {Object<string, any>} [fields]
   */
  send(kind, fields) {
    this.pendingSince = performance.now();
    this.model.send(Object.assign({ kind, seq: this.view().seq, cid: this.cid }, fields || {}));
  }

  /** @param {string} text */
  sendMove(text) {
    this.pick = null;
    this.send("move", { move: text });
  }

  // -- building the DOM ------------------------------------------------------------------

  build() {
    const root = h("div", "kw-root");
    this.root = root;
    this.bar = h("div", "kw-toolbar", { role: "toolbar" });
    this.buttons = {};
    /** @type {[string, string, () => void][]} */
    const buttons = [
      ["new_deal", "kw-btn-new", () => this.confirmNewDeal()],
      ["deal_by_number", "kw-btn-number", () => this.togglePanel("deal")],
      ["restart", "kw-btn-restart", () => this.confirmRestart()],
      ["undo", "kw-btn-undo", () => this.send("undo")],
      ["redo", "kw-btn-redo", () => this.send("redo")],
      ["hint", "kw-btn-hint", () => this.send("hint")],
      ["finish", "kw-btn-finish", () => this.finishOrStop()],
      ["solver_line", "kw-btn-line", () => this.send("open_line")],
      ["auto_complete", "kw-btn-auto", () => this.send("auto_complete")],
      ["statistics", "kw-btn-stats", () => this.extras.openStats()],
      ["rules", "kw-btn-rules", () => this.togglePanel("rules")],
      ["settings", "kw-btn-settings", () => this.togglePanel("settings")],
    ];
    /** @type {Object<string, string>} */
    const shortcuts = { new_deal: "N", undo: "U Control+Z", redo: "Y Control+Shift+Z", hint: "H", finish: "F" };
    for (const [key, cls, fn] of buttons) {
      const b = /** @type {HTMLButtonElement} */ (h("button", `kw-btn ${cls}`, { type: "button" }));
      if (shortcuts[key]) b.setAttribute("aria-keyshortcuts", shortcuts[key]);
      b.addEventListener("click", (ev) => {
        ev.stopPropagation();
        fn();
      });
      this.buttons[key] = b;
      this.bar.append(b);
    }
    this.drawSel = this.select("kw-sel-draw", (v) => this.send("set_draw", { draw: Number(v) }));
    this.langSel = this.select("kw-sel-lang", (v) => this.send("set_locale", { locale: v }));
    root.append(this.bar);
    this.settingsEl = h("div", "kw-settings");
    this.settingsEl.hidden = true;
    this.mirrorSel = this.select("kw-sel-mirror", (v) => this.send("set_mirror", { mirror: v }), this.settingsEl);
    this.paceSel = this.select("kw-sel-pace", (v) => this.send("set_pace", { pace: Number(v) }), this.settingsEl);
    root.append(this.settingsEl);

    const info = h("div", "kw-info");
    this.dealEl = h("span", "kw-deal");
    this.movesEl = h("span", "kw-moves");
    this.timeEl = h("span", "kw-time");
    this.statusEl = h("span", "kw-status", { role: "status" });
    this.scoreEl = h("span", "kw-score");
    info.append(this.dealEl, this.movesEl, this.timeEl, this.scoreEl, this.statusEl);
    this.hintEl = h("div", "kw-hint-text");
    this.hintEl.hidden = true;
    root.append(info);

    this.panelEl = h("div", "kw-panel");
    this.panelEl.hidden = true;
    root.append(this.panelEl);

    this.noticeEl = h("div", "kw-notice");
    this.noticeEl.hidden = true;
    root.append(this.noticeEl, this.hintEl);
    this.buildLine();
    root.append(this.lineEl);

    // Keys on the board are the game's, not the notebook's (Lumino honours this attribute).
    this.table = h("div", "kw-table", { "data-lm-suppress-shortcuts": "true" });
    this.top = h("div", "kw-top");
    this.tableau = h("div", "kw-tableau");
    this.table.append(this.top, this.tableau);
    root.append(this.table);

    this.winEl = h("div", "kw-win", { role: "dialog", "aria-modal": "false" });
    this.winEl.hidden = true;
    this.table.append(this.winEl);

    this.live = h("div", "kw-live", { "aria-live": "polite", "aria-atomic": "true" });
    root.append(this.live);

    /** @type {Object<string, HTMLElement>} */
    this.pileEls = {};
    for (const id of PILES) {
      const p = h("div", `kw-pile kw-pile-${id[0]}`, { "data-pile": id, tabindex: "-1" });
      this.pileEls[id] = p;
      if (id === "s" || id === "w") this.top.append(p);
      else if (id[0] === "f") this.top.append(p);
      else this.tableau.append(p);
      if (id === "w") this.top.append(h("div", "kw-gap"));
    }
    this.pileEls[this.focusPile].tabIndex = 0;

    root.addEventListener("pointerdown", (ev) => this.onPointerDown(ev));
    root.addEventListener("pointermove", (ev) => this.onPointerMove(ev));
    root.addEventListener("pointerup", (ev) => this.onPointerUp(ev));
    root.addEventListener("pointercancel", () => this.cancelDrag());
    root.addEventListener("dblclick", (ev) => this.onDoubleClick(ev));
    root.addEventListener("keydown", (ev) => this.onKey(ev));
    root.addEventListener("focusin", (ev) => {
      const pile = ev.target instanceof Element ? ev.target.closest(".kw-pile") : null;
      if (pile && pile instanceof HTMLElement && pile.dataset.pile) {
        this.focusPile = pile.dataset.pile;
        for (const id of PILES) this.pileEls[id].tabIndex = id === this.focusPile ? 0 : -1;
      }
    });
    this.el.append(root);
  }

  /**
   * @param {string} cls
   * @param {(value: string) => void} onPick
   * @param {HTMLElement} [parent]
   */
  select(cls, onPick, parent) {
    const label = h("label", `kw-field ${cls}`);
    const span = h("span", "kw-field-label");
    const sel = /** @type {HTMLSelectElement} */ (h("select", "kw-select"));
    sel.addEventListener("change", () => onPick(sel.value));
    label.append(span, sel);
    (parent || this.bar).append(label);
    return sel;
  }

  /**
   * @param {HTMLSelectElement} sel
   * @param {string} labelKey
   * @param {[string, string][]} options  [value, text]
   * @param {string} value
   */
  fillSelect(sel, labelKey, options, value) {
    const span = /** @type {HTMLElement} */ (sel.previousElementSibling);
    span.textContent = this.t(labelKey);
    sel.replaceChildren();
    for (const [v, text] of options) {
      const o = /** @type {HTMLOptionElement} */ (h("option"));
      o.value = v;
      o.textContent = text;
      sel.append(o);
    }
    sel.value = value;
  }

  /** Toolbar labels, selects, language and direction: what changes with the strings. */
  renderChrome() {
    const root = this.root;
    const lang = this.lang();
    root.setAttribute("lang", lang);
    root.setAttribute("dir", this.rtl() ? "rtl" : "ltr");
    for (const [key, b] of Object.entries(this.buttons)) {
      if (key === "settings") {
        b.textContent = this.t("settings.title");
        continue;
      }
      b.textContent = this.t(`button.${key}.label`);
      b.title = this.t(`button.${key}.tooltip`);
    }
    this.fillSelect(
      this.drawSel,
      "option.draw.label",
      [
        ["1", this.t("option.draw.one")],
        ["3", this.t("option.draw.three")],
      ],
      String(this.model.get("draw")),
    );
    this.drawSel.title = this.t("option.draw.tooltip");
    /** @type {[string, string][]} */
    const langs = (this.strs().available || []).map((/** @type {any} */ l) => [l.code, l.name]);
    this.fillSelect(this.langSel, "language.label", langs, lang);
    this.langSel.title = this.t("language.tooltip");
    for (const o of Array.from(this.langSel.options)) o.lang = o.value;
    this.fillSelect(
      this.mirrorSel,
      "settings.mirror.label",
      ["auto", "on", "off"].map((v) => [v, this.t(`settings.mirror.${v}`)]),
      this.model.get("mirror"),
    );
    const pace = Number(this.model.get("pace"));
    /** @type {[string, string][]} */
    const paces = PACES.map(([k, v]) => [String(v), this.t(k)]);
    if (!PACES.some(([, v]) => v === pace)) paces.push([String(pace), this.num(pace)]);
    this.fillSelect(this.paceSel, "settings.animation.label", paces, String(pace));
    this.extras.renderChrome();
    if (this.panel) this.renderPanel();
    this.renderLine(true);
  }

  // -- rendering the board ---------------------------------------------------------------

  /**
   * Draw the board from `view`; animate cards that moved (unless motion is reduced).
   * @param {boolean} [force]
   */
  render(force) {
    const started = performance.now();
    const v = this.view();
    if (!v || !v.cols) return;
    const changed = v.seq !== this.lastSeq;
    if (changed) {
      this.pick = null;
      if (this.drag) this.cancelDrag();
    }
    // Only the piles whose contents (or language) changed are drawn again.
    const lang = this.lang();
    /** @type {Object<string, string>} */
    const keys = {
      s: `${lang}|${v.stock}|${(v.legal.s || []).length}`,
      w: `${lang}|${v.wn}|${v.waste.join(",")}`,
    };
    FOUNDATIONS.forEach((id, i) => {
      keys[id] = `${lang}|${v.found[i]}`;
    });
    COLUMNS.forEach((id, i) => {
      keys[id] = `${lang}|${v.cols[i][0]}|${v.cols[i][1].join(",")}`;
    });
    if (force || !this.pileKeys) this.pileKeys = {};
    const dirty = PILES.filter((id) => this.pileKeys[id] !== keys[id]);
    // Cards glide only within a game (not into a new deal or a restart).
    const sameGame = this.lastView && this.lastView.deal === v.deal && v.moves > this.lastView.moves;
    const before = changed && !force && sameGame ? this.cardRects(dirty) : null;
    this.lastSeq = v.seq;
    this.lastView = v;
    const mirrored = this.mirrorBoard();
    this.table.setAttribute("dir", mirrored ? "rtl" : "ltr");
    this.root.dataset.seq = String(v.seq);
    this.root.dataset.status = v.status;
    this.root.classList.toggle("kw-finishing", v.status === "finishing");
    for (const id of dirty) {
      if (id === "s") this.renderStock(v);
      else if (id === "w") this.renderWaste(v);
      else if (id[0] === "f") {
        const i = FOUNDATIONS.indexOf(id);
        this.renderFoundation(id, i, v.found[i]);
      } else this.renderColumn(id, v.cols[COLUMNS.indexOf(id)]);
      this.pileKeys[id] = keys[id];
    }
    this.renderMarks();
    this.renderInfo(v);
    this.renderHint(v);
    this.renderWin(v);
    this.renderLine(false);
    if (v.announce && v.announce.n !== this.lastAnnounce) {
      this.lastAnnounce = v.announce.n;
      this.say(v.announce.text);
    }
    if (before) this.animate(before, v, dirty);
    // For benchmarks/widget_latency.py: how long this render took, and the round trip.
    const done = performance.now();
    this.root.dataset.renderMs = (done - started).toFixed(2);
    if (this.pendingSince) {
      this.root.dataset.latency = (done - this.pendingSince).toFixed(2);
      this.pendingSince = 0;
    }
  }

  mirrorBoard() {
    const m = this.model.get("mirror");
    if (m === "on") return true;
    if (m === "off") return false;
    return this.rtl();
  }

  /**
   * A card element.
   * @param {number|null} card  card id, or null for a face-down card
   * @param {string} pile
   * @param {number} index  position in the pile (0 = bottom)
   */
  cardEl(card, pile, index) {
    const c = h("div", "kw-card", { "data-pile": pile, "data-index": String(index) });
    if (card === null) {
      c.classList.add("kw-back");
      c.setAttribute("aria-label", this.t("card.face_down"));
      return c;
    }
    const deck = this.model.get("deck") || [];
    const [rank, suit, red] = deck[card] || ["?", "?", 0];
    const label = this.deckLabel(card);
    c.dataset.card = String(card);
    c.setAttribute("aria-label", label);
    c.setAttribute("role", "img");
    if (red) c.classList.add("kw-red");
    // Card faces never mirror: the face is always left-to-right (the card itself follows the
    // board, so that its logical position is right in a mirrored board).
    const corner = h("span", "kw-corner", { "aria-hidden": "true", dir: "ltr" });
    const r = h("span", "kw-rank");
    r.textContent = rank;
    const s = h("span", "kw-suit");
    s.textContent = suit;
    corner.append(r, s);
    const pip = h("span", "kw-pip", { "aria-hidden": "true", dir: "ltr" });
    pip.textContent = suit;
    c.append(corner, pip);
    return c;
  }

  /** @param {View} v */
  renderStock(v) {
    const p = this.pileEls.s;
    p.replaceChildren();
    p.classList.toggle("kw-empty", v.stock === 0);
    p.classList.toggle("kw-recycle", v.stock === 0 && (v.legal.s || []).length > 0);
    if (v.stock > 0) p.append(this.cardEl(null, "s", 0));
    if (v.stock > 0) {
      const badge = h("span", "kw-count", { "aria-hidden": "true" });
      badge.textContent = this.num(v.stock);
      p.append(badge);
    }
    p.setAttribute("aria-label", `${this.t("pile.stock")}: ${this.tp("counter.stock", v.stock)}`);
  }

  /** @param {View} v */
  renderWaste(v) {
    const p = this.pileEls.w;
    p.replaceChildren();
    p.classList.toggle("kw-empty", v.wn === 0);
    const first = v.wn - v.waste.length;
    v.waste.forEach((card, i) => {
      const c = this.cardEl(card, "w", first + i);
      c.style.setProperty("--kw-fan", String(i));
      c.classList.add("kw-fan");
      if (i < v.waste.length - 1) c.classList.add("kw-under");
      p.append(c);
    });
    const top = v.waste.length ? this.deckLabel(v.waste[v.waste.length - 1]) : this.t("pile.empty");
    p.setAttribute("aria-label", `${this.t("pile.waste")}: ${top}; ${this.tp("counter.waste", v.wn)}`);
  }

  /** @param {number} card */
  deckLabel(card) {
    const names = this.strs().cards || [];
    return names[card] || "";
  }

  /**
   * @param {string} id
   * @param {number} suit
   * @param {number|null} top
   */
  renderFoundation(id, suit, top) {
    const p = this.pileEls[id];
    p.replaceChildren();
    p.classList.toggle("kw-empty", top === null);
    const mark = h("span", "kw-mark", { "aria-hidden": "true" });
    const deck = this.model.get("deck") || [];
    mark.textContent = deck[suit * 13] ? deck[suit * 13][1] : "";
    p.append(mark);
    if (top !== null) p.append(this.cardEl(top, id, 0));
    const name = this.t(`card.suit.${suit}`);
    const what = top === null ? this.t("pile.empty") : this.deckLabel(top);
    p.setAttribute("aria-label", `${this.t("pile.foundation", { suit: name })}: ${what}`);
  }

  /**
   * @param {string} id
   * @param {[number, number[]]} col  [face-down count, face-up cards]
   */
  renderColumn(id, col) {
    const [down, up] = col;
    const p = this.pileEls[id];
    p.replaceChildren();
    p.classList.toggle("kw-empty", down + up.length === 0);
    for (let i = 0; i < down; i++) {
      const c = this.cardEl(null, id, i);
      c.style.setProperty("--kw-d", String(i));
      c.style.setProperty("--kw-u", "0");
      p.append(c);
    }
    up.forEach((card, j) => {
      const c = this.cardEl(card, id, down + j);
      c.style.setProperty("--kw-d", String(down));
      c.style.setProperty("--kw-u", String(j));
      p.append(c);
    });
    p.style.setProperty("--kw-d", String(down));
    p.style.setProperty("--kw-u", String(Math.max(0, up.length - 1)));
    const n = Number(id.slice(1));
    const parts = [this.t("pile.column", { column: n })];
    if (down + up.length === 0) parts.push(this.t("pile.empty"));
    if (down) parts.push(this.tp("pile.face_down", down));
    if (up.length) parts.push(up.map((c) => this.deckLabel(c)).join(", "));
    p.setAttribute("aria-label", parts.join(": "));
  }

  /** Selection, legal targets, hint and focus marks. */
  renderMarks() {
    const v = this.view();
    const marks = ["kw-picked", "kw-target", "kw-hint-src", "kw-hint-dst", "kw-next-src", "kw-next-dst"];
    for (const e of this.root.querySelectorAll(marks.map((m) => "." + m).join(", "))) {
      e.classList.remove(...marks);
    }
    if (this.pick) {
      for (const card of this.runEls(this.pick.src, this.pick.n)) card.classList.add("kw-picked");
      for (const [, dst] of this.movesFrom(this.pick.src, this.pick.n)) {
        this.pileEls[dst] && this.pileEls[dst].classList.add("kw-target");
      }
    }
    if (v.hint) this.markMove(v.hint, "kw-hint");
    if (v.line && v.line.next) this.markMove(v.line.next, "kw-next");
    for (const id of PILES) this.pileEls[id].tabIndex = id === this.focusPile ? 0 : -1;
  }

  /**
   * Mark the source cards and the target pile of a move with `${prefix}-src` / `${prefix}-dst`.
   * @param {{src: string, n: number, dst: string}} m
   * @param {string} prefix
   */
  markMove(m, prefix) {
    if (m.src === "s") this.pileEls.s.classList.add(`${prefix}-src`);
    for (const card of this.runEls(m.src, Math.max(1, m.n))) card.classList.add(`${prefix}-src`);
    if (m.dst !== "w" && this.pileEls[m.dst]) this.pileEls[m.dst].classList.add(`${prefix}-dst`);
  }

  /**
   * The elements of the top `n` cards of a pile.
   * @param {string} src
   * @param {number} n
   */
  runEls(src, n) {
    const p = this.pileEls[src];
    if (!p || n <= 0) return [];
    const cards = Array.from(p.querySelectorAll(".kw-card[data-card]"));
    return cards.slice(Math.max(0, cards.length - n));
  }

  /** @param {View} v */
  renderHint(v) {
    const text = v.hint ? this.t("hint.show", { move: v.hint.text }) : "";
    this.hintEl.hidden = !text;
    if (text && this.hintEl.textContent !== text) {
      this.hintEl.textContent = text;
      this.say(text);
    }
    if (!text) this.hintEl.textContent = "";
  }

  /** @param {View} v */
  renderInfo(v) {
    this.dealEl.textContent = v.deal === null ? "" : this.t("counter.deal", { number: this.dealNum(v.deal) });
    this.movesEl.textContent = `${this.t("counter.label.moves")}: ${this.num(v.moves)}`;
    this.renderClock();
    this.extras.renderInfo(v);
    let key = "";
    if (v.status === "won") key = "status.won";
    else if (v.status === "finishing") key = "status.finishing";
    else if (v.analysis) key = { solving: "status.solving", winnable: "status.winnable", unwinnable: "status.unwinnable", unknown: "status.unknown" }[v.analysis] || "";
    this.statusEl.textContent = key ? this.t(key) : "";
    this.statusEl.dataset.analysis = v.analysis || v.status;
    const b = this.buttons;
    b.undo.disabled = !v.undo;
    b.redo.disabled = !v.redo;
    const playing = v.status === "playing";
    b.hint.disabled = !playing;
    b.restart.disabled = v.status === "finishing";
    b.solver_line.disabled = !v.lines || v.status === "finishing" || v.status === "analysis";
    const fin = b.finish;
    if (v.status === "finishing") {
      fin.textContent = this.t("button.stop.label");
      fin.title = this.t("button.stop.tooltip");
      fin.setAttribute("aria-disabled", "false");
      fin.disabled = false;
    } else {
      fin.textContent = this.t("button.finish.label");
      fin.disabled = !playing;
      fin.setAttribute("aria-disabled", v.finish ? "true" : "false");
      fin.title = v.finish ? this.t(v.finish) : this.t("button.finish.tooltip");
    }
  }

  renderClock() {
    const v = this.view();
    if (!v || !v.clock) return;
    let ms = v.clock.ms;
    if (v.clock.run) {
      const skew = Date.now() - v.clock.at;
      ms += skew >= 0 && skew < 864e5 ? skew : 0;
    }
    this.timeEl.textContent = `${this.t("counter.label.time")}: `;
    const t = h("span", "kw-clock", { dir: "ltr" });
    t.textContent = this.duration(ms);
    this.timeEl.append(t);
  }

  /** @param {number} ms */
  duration(ms) {
    const s = Math.floor(ms / 1000);
    const two = (/** @type {number} */ n) => {
      const meta = this.strs().meta || {};
      const opts = { minimumIntegerDigits: 2, useGrouping: false };
      if (meta.numbering) Object.assign(opts, { numberingSystem: meta.numbering });
      try {
        return new Intl.NumberFormat(this.lang(), opts).format(n);
      } catch (e) {
        return String(n).padStart(2, "0");
      }
    };
    const hours = Math.floor(s / 3600);
    const mm = two(Math.floor((s % 3600) / 60));
    const ss = two(s % 60);
    return hours ? `${this.num(hours)}:${mm}:${ss}` : `${mm}:${ss}`;
  }

  /** @param {View} v */
  renderWin(v) {
    const won = v.status === "won";
    this.winEl.hidden = !won;
    if (!won) return;
    this.winEl.replaceChildren();
    const box = h("div", "kw-win-box");
    const title = h("div", "kw-win-title");
    title.textContent = this.t("win.title");
    const msg = h("div", "kw-win-msg");
    msg.textContent = this.tp("win.message", v.moves, { time: this.duration(v.clock.ms) });
    const again = h("button", "kw-btn kw-btn-again", { type: "button" });
    again.textContent = this.t("button.new_deal.label");
    again.addEventListener("click", () => this.send("new_deal"));
    const burst = h("div", "kw-burst", { "aria-hidden": "true" });
    for (let i = 0; i < 12; i++) {
      const s = h("span");
      s.textContent = ["♣", "♦", "♥", "♠"][i % 4];
      s.style.setProperty("--kw-i", String(i));
      burst.append(s);
    }
    box.append(burst, title, msg, again);
    this.winEl.append(box);
  }

  /**
   * Where the face-up cards of `piles` are now (a moved card leaves and enters a changed pile).
   * @param {string[]} piles
   * @returns {Map<string, DOMRect>}
   */
  cardRects(piles) {
    const out = new Map();
    if (this.reducedMotion()) return out;
    for (const id of piles) {
      for (const c of this.pileEls[id].querySelectorAll(".kw-card[data-card]")) {
        out.set(/** @type {HTMLElement} */ (c).dataset.card, c.getBoundingClientRect());
      }
    }
    return out;
  }

  reducedMotion() {
    return Boolean(window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches);
  }

  /**
   * FLIP: cards that changed place glide from where they were.
   * @param {Map<string, DOMRect>} before
   * @param {View} v
   * @param {string[]} piles  the piles drawn again
   */
  animate(before, v, piles) {
    if (!before.size) return;
    const pace = Number(this.model.get("pace"));
    const duration = v.status === "finishing" ? Math.min(180, pace * 0.8) : 160;
    if (duration < 20) return;
    const cards = piles.flatMap((id) => Array.from(this.pileEls[id].querySelectorAll(".kw-card[data-card]")));
    for (const c of cards) {
      const e = /** @type {HTMLElement} */ (c);
      const old = before.get(/** @type {string} */ (e.dataset.card));
      if (!old || !e.animate) continue;
      const now = e.getBoundingClientRect();
      const dx = old.left - now.left;
      const dy = old.top - now.top;
      if (Math.abs(dx) < 1 && Math.abs(dy) < 1) continue;
      e.animate([{ transform: `translate(${dx}px, ${dy}px)` }, { transform: "none" }], {
        duration,
        easing: "ease-out",
      });
    }
  }

  // -- messages --------------------------------------------------------------------------

  /** @param {any} msg */
  onCustom(msg) {
    if (!msg || msg.kind !== "notice") return;
    if (msg.cid && msg.cid !== this.cid) return; // another view's request
    const args = Object.assign({ code: msg.key }, msg.args || {});
    this.showNotice(this.t(msg.key, args), msg.key);
  }

  /**
   * @param {string} text
   * @param {string} key
   */
  showNotice(text, key) {
    this.noticeEl.hidden = false;
    this.noticeEl.dataset.key = key;
    this.noticeEl.textContent = text;
    this.say(text);
    clearTimeout(this.noticeTimer);
    this.noticeTimer = setTimeout(() => {
      this.noticeEl.hidden = true;
    }, 5000);
  }

  /** @param {string} text */
  say(text) {
    this.live.textContent = text;
  }

  // -- the analysis panel: a solver line, stepped through ------------------------------

  buildLine() {
    const sec = h("section", "kw-line", { "data-lm-suppress-shortcuts": "true" });
    sec.hidden = true;
    this.lineEl = sec;
    const head = h("div", "kw-line-head");
    this.lineTitle = h("h3", "kw-line-title");
    this.lineStepEl = h("span", "kw-line-step");
    head.append(this.lineTitle, this.lineStepEl);
    const controls = h("div", "kw-line-controls", { role: "group" });
    /** @type {Object<string, HTMLButtonElement>} */
    this.lineButtons = {};
    /** @type {[string, string, boolean, () => void][]} [key, icon, mirrors in RTL, action] */
    const buttons = [
      ["first", "⇤", true, () => this.stepTo(0)],
      ["previous", "←", true, () => this.stepBy(-1)],
      ["autoplay", "▶\uFE0E", false, () => this.toggleAutoplay()],
      ["next", "→", true, () => this.stepBy(1)],
      ["last", "⇥", true, () => this.stepTo(Infinity)],
    ];
    for (const [key, icon, mirrors, fn] of buttons) {
      const b = /** @type {HTMLButtonElement} */ (h("button", `kw-btn kw-line-btn kw-line-${key}`, { type: "button" }));
      const i = h("span", mirrors ? "kw-line-icon kw-mirrors" : "kw-line-icon", { "aria-hidden": "true" });
      i.textContent = icon;
      b.append(i);
      b.addEventListener("click", (ev) => {
        ev.stopPropagation();
        fn();
      });
      this.lineButtons[key] = b;
      controls.append(b);
    }
    this.slider = /** @type {HTMLInputElement} */ (h("input", "kw-line-slider", { type: "range", min: "0", step: "1" }));
    this.slider.addEventListener("input", () => this.stepTo(Number(this.slider.value)));
    controls.append(this.slider);
    this.speedSel = this.select("kw-sel-speed", (v) => this.send("set_step_pace", { pace: Number(v) }), controls);
    // Focusable: it scrolls, and it keeps the keys (Left/Right/Home/End) when a button disables.
    this.lineList = h("ol", "kw-line-list", { tabindex: "0" });
    this.lineList.addEventListener("click", (ev) => {
      const item = ev.target instanceof Element ? ev.target.closest(".kw-line-item") : null;
      if (item instanceof HTMLElement) this.stepTo(Number(item.dataset.step));
    });
    const actions = h("div", "kw-line-actions");
    this.playHereBtn = /** @type {HTMLButtonElement} */ (h("button", "kw-btn kw-btn-play-here", { type: "button" }));
    this.playHereBtn.addEventListener("click", () => {
      const l = this.view().line;
      if (l) this.send("play_from_here", { line: l.id, index: l.k });
    });
    this.backBtn = /** @type {HTMLButtonElement} */ (h("button", "kw-btn kw-btn-back", { type: "button" }));
    this.backBtn.addEventListener("click", () => this.send("back_to_game"));
    actions.append(this.playHereBtn, this.backBtn);
    sec.append(head, controls, this.lineList, actions);
    /** The line_view drawn in the list: "id|first|words" (the list is rebuilt only when it changes). */
    this.lineKey = "";
  }

  /** @returns {LineView|null} */
  lineView() {
    const lv = this.model.get("line_view");
    return lv && lv.moves ? lv : null;
  }

  /** @param {number} k */
  stepTo(k) {
    const l = this.view().line;
    if (!l) return;
    const index = Math.max(0, Math.min(l.total, k));
    if (index !== l.k) this.send("step", { line: l.id, index });
  }

  /** @param {number} d */
  stepBy(d) {
    const l = this.view().line;
    if (l) this.stepTo(l.k + d);
  }

  toggleAutoplay() {
    const l = this.view().line;
    if (l) this.send("autoplay", { line: l.id, on: !l.auto });
  }

  /**
   * Draw the analysis panel: controls for the step shown; the list when the line changed.
   * @param {boolean} full  labels and list too (strings or line_view changed)
   */
  renderLine(full) {
    const v = this.view();
    const l = v ? v.line : null;
    const lv = this.lineView();
    const open = Boolean(l && lv && lv.id === l.id);
    this.lineEl.hidden = !open;
    this.root.classList.toggle("kw-analysing", open);
    if (!open || !l || !lv) return;
    const moves = lv.moves.split(" ");
    const key = `${this.lang()}|${lv.id}|${lv.first}|${lv.words.length}|${lv.words[0] || ""}`;
    if (full || key !== this.lineKey) {
      this.lineKey = key;
      this.lineTitle.textContent = this.t(lv.title || "analysis.title");
      for (const [k, b] of Object.entries(this.lineButtons)) {
        if (k === "autoplay") continue;
        b.title = this.t(`analysis.${k}`);
        b.setAttribute("aria-label", b.title);
      }
      this.slider.max = String(l.total);
      this.slider.setAttribute("aria-label", this.t("analysis.title"));
      const pace = Number(this.model.get("step_pace"));
      /** @type {[string, string][]} */
      const paces = STEP_PACES.map(([k, ms]) => [String(ms), this.t(k)]);
      if (!STEP_PACES.some(([, ms]) => ms === pace)) paces.push([String(pace), this.num(pace)]);
      this.fillSelect(this.speedSel, "analysis.speed", paces, String(pace));
      this.playHereBtn.textContent = this.t(lv.play || "analysis.play_from_here.label");
      this.backBtn.textContent = this.t("analysis.back_to_game.label");
      this.backBtn.title = this.t("analysis.back_to_game.tooltip");
      const items = [this.lineItem(0, this.t("analysis.start"), "")];
      moves.forEach((text, i) => {
        const words = i >= lv.first && i < lv.first + lv.words.length ? lv.words[i - lv.first] : "";
        items.push(this.lineItem(i + 1, words, text));
      });
      this.lineList.replaceChildren(...items);
      this.lineItems = items;
    }
    // The step shown.
    this.lineStepEl.textContent = l.k === 0 ? this.t("analysis.start") : this.t("analysis.step", { index: l.k, total: l.total });
    this.slider.value = String(l.k);
    this.slider.setAttribute("aria-valuetext", this.lineStepEl.textContent);
    const b = this.lineButtons;
    b.first.disabled = b.previous.disabled = l.k === 0;
    b.next.disabled = b.last.disabled = l.k === l.total;
    const auto = b.autoplay;
    auto.firstElementChild.textContent = l.auto ? "❚❚" : "▶\uFE0E";
    auto.title = this.t(l.auto ? "analysis.pause" : "analysis.autoplay");
    auto.setAttribute("aria-label", auto.title);
    auto.setAttribute("aria-pressed", String(l.auto));
    this.playHereBtn.disabled = !l.playable;
    const active = document.activeElement;
    if (active instanceof HTMLButtonElement && active.disabled && this.lineEl.contains(active)) {
      this.lineList.focus({ preventScroll: true }); // a disabled button would drop the focus
    }
    const playTip = lv.play ? "review.try_from_here.tooltip" : "analysis.play_from_here.tooltip";
    this.playHereBtn.title = this.t(l.playable ? playTip : "reject.line_not_current");
    for (const item of this.lineItems || []) {
      const k = Number(item.dataset.step);
      item.classList.toggle("kw-current", k === l.k);
      item.classList.toggle("kw-played", k < l.k);
      item.classList.toggle("kw-upcoming", k === l.k + 1);
      if (k === l.k) item.setAttribute("aria-current", "step");
      else item.removeAttribute("aria-current");
    }
    const cur = (this.lineItems || [])[l.k];
    // Follow the step only when it (or the list) changed: a reader scrolling the list keeps
    // their place when something else (the clock, the solver's status) updates the view.
    const moved = this.lineShown !== `${this.lineKey}|${l.k}`;
    this.lineShown = `${this.lineKey}|${l.k}`;
    if (cur && moved) {
      // Keep the current step in view inside the list (never scroll the notebook itself).
      const list = this.lineList;
      const top = cur.offsetTop; // the list is the items' offsetParent (position: relative)
      if (top < list.scrollTop || top + cur.offsetHeight > list.scrollTop + list.clientHeight) {
        list.scrollTop = Math.max(0, top - list.clientHeight / 2);
      }
    }
  }

  /**
   * One entry of the list: step `k` (after its move), its words and its notation.
   * @param {number} k
   * @param {string} words
   * @param {string} code
   */
  lineItem(k, words, code) {
    const li = h("li", "kw-line-item", { "data-step": String(k) });
    const num = h("span", "kw-line-num");
    num.textContent = k ? this.num(k) : "";
    const w = h("span", "kw-line-words");
    w.textContent = words;
    li.append(num, w);
    if (code) {
      const c = h("code", "kw-line-code", { dir: "ltr" });
      c.textContent = code;
      li.append(c);
      if (!words) li.classList.add("kw-line-far");
    }
    return li;
  }

  // -- panels: rules, deal number, confirmation -----------------------------------------

  /** @param {string} which */
  togglePanel(which) {
    this.panel = this.panel === which ? "" : which;
    this.renderPanel();
  }

  renderPanel() {
    this.settingsEl.hidden = this.panel !== "settings";
    this.buttons.settings.setAttribute("aria-expanded", String(this.panel === "settings"));
    this.buttons.rules.setAttribute("aria-expanded", String(this.panel === "rules"));
    const p = this.panelEl;
    p.replaceChildren();
    p.hidden = !this.panel || this.panel === "settings";
    p.dataset.panel = this.panel;
    if (p.hidden) return;
    const close = h("button", "kw-btn kw-btn-close", { type: "button" });
    close.textContent = this.t("button.close.label");
    close.title = this.t("button.close.tooltip");
    close.addEventListener("click", () => this.togglePanel(""));
    if (this.panel === "rules") {
      const rules = this.strs().rules || { title: "", sections: [] };
      const title = h("h3", "kw-rules-title");
      title.textContent = rules.title || this.t("button.rules.label");
      p.append(title);
      for (const sec of rules.sections || []) {
        const hd = h("h4", "kw-rules-heading");
        hd.textContent = sec.heading;
        p.append(hd);
        for (const para of sec.paragraphs || []) {
          const e = h("p", "kw-rules-text");
          e.textContent = para;
          p.append(e);
        }
      }
      p.append(close);
    } else if (this.panel === "deal") {
      const form = h("form", "kw-deal-form");
      const label = h("label", "kw-field");
      const span = h("span", "kw-field-label");
      span.textContent = this.t("deal_number.label");
      const input = /** @type {HTMLInputElement} */ (h("input", "kw-input", { inputmode: "numeric", dir: "ltr", autocomplete: "off" }));
      label.append(span, input);
      const hint = h("span", "kw-field-hint");
      hint.textContent = this.t("deal_number.hint", { max: this.dealNum("18446744073709551615") });
      const go = h("button", "kw-btn kw-btn-deal", { type: "submit" });
      go.textContent = this.t("deal_number.submit");
      form.addEventListener("submit", (ev) => {
        ev.preventDefault();
        this.panel = "";
        this.renderPanel();
        this.send("new_deal", { deal: input.value.trim() });
      });
      form.append(label, go, hint);
      p.append(form, close);
      setTimeout(() => input.focus(), 0);
    } else if (this.panel === "stats") {
      this.extras.renderStats(p, close);
    } else if (this.panel === "confirm") {
      const q = h("span", "kw-confirm-text");
      q.textContent = this.t(this.confirmKey || "dialog.confirm_new_deal");
      const ok = h("button", "kw-btn kw-btn-ok", { type: "button" });
      ok.textContent = this.t("dialog.ok");
      ok.addEventListener("click", () => {
        const fn = this.confirmAction;
        this.togglePanel("");
        if (fn) fn();
      });
      const cancel = h("button", "kw-btn kw-btn-cancel", { type: "button" });
      cancel.textContent = this.t("dialog.cancel");
      cancel.addEventListener("click", () => this.togglePanel(""));
      p.append(q, ok, cancel);
      setTimeout(() => ok.focus(), 0);
    }
  }

  /**
   * Ask before throwing a game in progress away.
   * @param {string} key
   * @param {() => void} action
   */
  confirm(key, action) {
    const v = this.view();
    if (v.moves === 0 || v.status === "won") {
      action();
      return;
    }
    this.confirmKey = key;
    this.confirmAction = action;
    this.panel = "confirm";
    this.renderPanel();
  }

  confirmNewDeal() {
    this.confirm("dialog.confirm_new_deal", () => this.send("new_deal"));
  }

  confirmRestart() {
    this.confirm("dialog.confirm_restart", () => this.send("restart"));
  }

  finishOrStop() {
    if (this.view().status === "finishing") this.send("stop");
    else this.send("finish");
  }

  // -- picking and dropping --------------------------------------------------------------

  /**
   * What a pointer event is over: the pile, and the card index in it (or -1).
   * @param {EventTarget|null} target
   */
  hit(target) {
    const e = target instanceof Element ? target : null;
    const card = e ? e.closest(".kw-card") : null;
    const pile = e ? e.closest(".kw-pile") : null;
    if (!pile || !this.root.contains(pile)) return null;
    const id = /** @type {string} */ (/** @type {HTMLElement} */ (pile).dataset.pile);
    const index = card ? Number(/** @type {HTMLElement} */ (card).dataset.index) : -1;
    const faceUp = card ? card.hasAttribute("data-card") : false;
    return { id, index, faceUp };
  }

  /**
   * The pick a press on card `index` of pile `id` makes (top card, or a run in a column).
   * @param {string} id
   * @param {number} index
   * @returns {Pick|null}
   */
  pickAt(id, index) {
    const v = this.view();
    if (v.status !== "playing") return null;
    if (id === "w") return v.wn ? { src: "w", n: 1 } : null;
    if (id[0] === "f") return v.found[FOUNDATIONS.indexOf(id)] !== null ? { src: id, n: 1 } : null;
    if (id[0] === "t") {
      const [down, up] = v.cols[COLUMNS.indexOf(id)];
      const n = down + up.length - index;
      if (index < down || n < 1 || n > up.length) return null;
      return { src: id, n };
    }
    return null;
  }

  /** @param {PointerEvent} ev */
  onPointerDown(ev) {
    if (ev.button !== 0) return;
    const hit = this.hit(ev.target);
    if (!hit) return;
    this.focusPile = hit.id;
    const pick = hit.faceUp ? this.pickAt(hit.id, hit.index) : null;
    this.drag = { pick, x: ev.clientX, y: ev.clientY, hit, moving: false, ghost: null, id: ev.pointerId };
  }

  /** @param {PointerEvent} ev */
  onPointerMove(ev) {
    const d = this.drag;
    if (!d || !d.pick || d.id !== ev.pointerId) return;
    const dx = ev.clientX - d.x;
    const dy = ev.clientY - d.y;
    if (!d.moving) {
      if (Math.hypot(dx, dy) < DRAG_THRESHOLD) return;
      d.moving = true;
      this.pick = d.pick;
      this.renderMarks();
      try {
        this.root.setPointerCapture(ev.pointerId);
      } catch (e) {
        /* capture is an optimisation */
      }
      d.cards = this.runEls(d.pick.src, d.pick.n);
      for (const c of d.cards) c.classList.add("kw-dragging");
    }
    ev.preventDefault();
    for (const c of d.cards || []) /** @type {HTMLElement} */ (c).style.translate = `${dx}px ${dy}px`;
  }

  /** @param {PointerEvent} ev */
  onPointerUp(ev) {
    const d = this.drag;
    if (!d || d.id !== ev.pointerId) return;
    this.drag = null;
    if (d.moving) {
      for (const c of d.cards || []) {
        /** @type {HTMLElement} */ (c).style.pointerEvents = "none";
      }
      const under = document.elementFromPoint(ev.clientX, ev.clientY);
      for (const c of d.cards || []) {
        const e = /** @type {HTMLElement} */ (c);
        e.style.translate = "";
        e.style.pointerEvents = "";
        e.classList.remove("kw-dragging");
      }
      const hit = this.hit(under);
      if (hit && this.dropOn(hit.id)) return;
      this.pick = null;
      this.renderMarks();
      return;
    }
    // Touch and pen have no dependable dblclick: two taps on the same card within 400 ms.
    if (ev.pointerType !== "mouse" && d.hit.faceUp && !this.model.get("one_click")) {
      const now = performance.now();
      const key = `${d.hit.id}:${d.hit.index}`;
      if (this.lastTap && this.lastTap.key === key && now - this.lastTap.at < 400) {
        this.lastTap = null;
        if (this.toFoundation(d.hit)) return;
      } else {
        this.lastTap = { key, at: now };
      }
    }
    this.clickOn(d.hit, d.pick);
  }

  cancelDrag() {
    const d = this.drag;
    this.drag = null;
    if (!d) return;
    for (const c of d.cards || []) {
      const e = /** @type {HTMLElement} */ (c);
      e.style.translate = "";
      e.classList.remove("kw-dragging");
    }
  }

  /**
   * Drop the picked cards on pile `id` if that is a legal move; true if a move was sent.
   * @param {string} id
   */
  dropOn(id) {
    if (!this.pick) return false;
    const m = this.movesFrom(this.pick.src, this.pick.n).find((x) => x[1] === id);
    if (!m) return false;
    this.sendMove(m[2]);
    return true;
  }

  /**
   * Click-to-pick, then click-to-drop; a click on the stock taps it.
   * @param {{id: string, index: number, faceUp: boolean}} hit
   * @param {Pick|null} pick
   */
  clickOn(hit, pick) {
    const v = this.view();
    if (!this.pick && this.extras.oneClick(pick)) return;
    if (hit.id === "s" && !this.pick) {
      const m = (v.legal.s || [])[0];
      if (m) this.sendMove(m[2]);
      return;
    }
    if (this.pick) {
      if (this.dropOn(hit.id)) return;
      const same = pick && pick.src === this.pick.src && pick.n === this.pick.n;
      this.pick = same ? null : pick;
    } else {
      this.pick = pick;
    }
    this.renderMarks();
    if (this.pick) this.say(this.t("announce.select", { card: this.pickLabel(this.pick) }));
  }

  /** @param {Pick} pick */
  pickLabel(pick) {
    const els = this.runEls(pick.src, pick.n);
    const first = els[0];
    return first ? this.deckLabel(Number(/** @type {HTMLElement} */ (first).dataset.card)) : "";
  }

  /** @param {MouseEvent} ev */
  onDoubleClick(ev) {
    if (this.model.get("one_click")) return; // each of the two clicks already acted
    const hit = this.hit(ev.target);
    if (hit && hit.faceUp) this.toFoundation(hit);
  }

  /**
   * Send the card at `hit` to its foundation if Python published that move; true if sent.
   * @param {{id: string, index: number}} hit
   */
  toFoundation(hit) {
    const pick = this.pickAt(hit.id, hit.index);
    if (!pick || pick.n !== 1) return false;
    const m = this.movesFrom(pick.src, 1).find((x) => x[1][0] === "f");
    if (!m) return false;
    this.sendMove(m[2]);
    return true;
  }

  // -- keyboard --------------------------------------------------------------------------

  /** @param {KeyboardEvent} ev */
  onKey(ev) {
    const target = /** @type {HTMLElement} */ (ev.target);
    if (target && (target.tagName === "INPUT" || target.tagName === "SELECT")) return;
    if (ev.altKey || ev.metaKey) return;
    const key = ev.key;
    const ctrl = ev.ctrlKey;
    const lower = key.length === 1 ? key.toLowerCase() : key;
    /** @type {Object<string, () => void>} */
    const commands = {
      u: () => this.send("undo"),
      y: () => this.send("redo"),
      h: () => this.send("hint"),
      f: () => this.finishOrStop(),
      n: () => this.confirmNewDeal(),
    };
    if (ctrl && lower === "z") return this.handled(ev, () => this.send(ev.shiftKey ? "redo" : "undo"));
    if (ctrl) return;
    const line = this.view().line;
    if (line && ["ArrowLeft", "ArrowRight", "Home", "End"].includes(key) && !ev.shiftKey) {
      // Left/Right step through the line (swapped in right-to-left text), Home/End jump.
      const forward = (key === "ArrowRight") !== this.rtl();
      const to = { Home: 0, End: line.total }[key];
      const k = to !== undefined ? to : line.k + (forward ? 1 : -1);
      return this.handled(ev, () => this.stepTo(k));
    }
    if (commands[lower] && !target.closest(".kw-toolbar, .kw-panel, .kw-line")) return this.handled(ev, commands[lower]);
    const onBoard = target.closest && target.closest(".kw-pile");
    if (!onBoard) return;
    const mirrored = this.mirrorBoard();
    if (key === "ArrowRight" || key === "ArrowLeft") {
      const step = (key === "ArrowRight") !== mirrored ? 1 : -1;
      return this.handled(ev, () => this.moveFocus(step));
    }
    if (key === "ArrowUp" || key === "ArrowDown") {
      return this.handled(ev, () => this.upDown(key === "ArrowUp"));
    }
    if (key === "Enter" || key === " ") return this.handled(ev, () => this.activate());
    if (key === "Escape") {
      return this.handled(ev, () => {
        this.pick = null;
        this.renderMarks();
      });
    }
  }

  /**
   * @param {KeyboardEvent} ev
   * @param {() => void} fn
   */
  handled(ev, fn) {
    ev.preventDefault();
    ev.stopPropagation();
    fn();
  }

  /** @param {number} step */
  moveFocus(step) {
    const i = PILES.indexOf(this.focusPile);
    this.focusPile = PILES[(i + step + PILES.length) % PILES.length];
    this.renderMarks();
    this.pileEls[this.focusPile].focus();
  }

  /**
   * Up/Down: with a column run picked, grow or shrink it; otherwise jump between the rows.
   * @param {boolean} up
   */
  upDown(up) {
    const id = this.focusPile;
    if (this.pick && this.pick.src === id && id[0] === "t") {
      const [, cards] = this.view().cols[COLUMNS.indexOf(id)];
      const n = Math.min(cards.length, Math.max(1, this.pick.n + (up ? 1 : -1)));
      this.pick = { src: id, n };
      this.renderMarks();
      this.say(this.t("announce.select", { card: this.pickLabel(this.pick) }));
      return;
    }
    const down = { s: "t1", w: "t2", fc: "t4", fd: "t5", fh: "t6", fs: "t7" };
    const upTo = { t1: "s", t2: "w", t3: "w", t4: "fc", t5: "fd", t6: "fh", t7: "fs" };
    const next = up ? upTo[id] : down[id];
    if (next) {
      this.focusPile = next;
      this.renderMarks();
      this.pileEls[next].focus();
    }
  }

  /** Enter/Space on the focused pile: tap the stock, pick, or drop. */
  activate() {
    const id = this.focusPile;
    const v = this.view();
    if (this.pick) {
      if (this.dropOn(id)) return;
      this.pick = null;
      this.renderMarks();
      return;
    }
    if (id === "s") {
      const m = (v.legal.s || [])[0];
      if (m) this.sendMove(m[2]);
      return;
    }
    const p = this.pileEls[id];
    const cards = p.querySelectorAll(".kw-card[data-card]");
    const top = /** @type {HTMLElement|undefined} */ (cards[cards.length - 1]);
    if (!top) return;
    this.pick = this.pickAt(id, Number(top.dataset.index));
    this.renderMarks();
    if (this.pick) this.say(this.t("announce.select", { card: this.pickLabel(this.pick) }));
  }
}

// -- scoring, statistics and one-click moves ------------------------------------------------
// Python decides everything here (klondike_widget.play): the score, the one-click target of
// each card (`view.quick`), whether auto-complete is offered, and the statistics rows
// (`stats_view`). This class only draws them and sends intents.

/** Rows of the statistics panel: [strings key, row field, kind of value]. */
const STAT_ROWS = [
  ["stats.played", "played", "n"],
  ["stats.won", "won", "n"],
  ["stats.lost", "lost", "n"],
  ["stats.win_rate", "win_rate", "pct"],
  ["stats.streak", "streak", "n"],
  ["stats.best_streak", "best_streak", "n"],
  ["stats.best_time", "best_time", "time"],
  ["stats.fewest_moves", "fewest_moves", "n"],
  ["stats.best_score", "best_score", "n"],
  ["stats.vegas_total", "vegas_total", "n"],
  ["stats.won_with_help", "won_with_help", "n"],
];
const OPTIONS = ["one_click", "auto_safe", "vegas_cumulative"];

class PlayExtras {
  /** @param {Board} board */
  constructor(board) {
    this.board = board;
    this.confirmReset = false;
    const b = board;
    this.scoringSel = b.select("kw-sel-scoring", (v) => b.send("set_scoring", { scoring: v }), b.settingsEl);
    /** @type {Object<string, HTMLInputElement>} */
    this.checks = {};
    for (const name of OPTIONS) {
      const label = h("label", `kw-field kw-check kw-opt-${name}`);
      const box = /** @type {HTMLInputElement} */ (h("input", "kw-checkbox", { type: "checkbox" }));
      box.addEventListener("change", () => b.send("set_option", { name, on: box.checked }));
      const span = h("span", "kw-field-label");
      label.append(box, span);
      b.settingsEl.append(label);
      this.checks[name] = box;
    }
    this.onStats = () => {
      if (b.panel === "stats") b.renderPanel();
    };
    this.onOptions = () => {
      this.renderChrome();
      b.renderInfo(b.view());
    };
    b.model.on("change:stats_view", this.onStats);
    for (const name of ["scoring", ...OPTIONS]) b.model.on(`change:${name}`, this.onOptions);
  }

  destroy() {
    const m = this.board.model;
    m.off("change:stats_view", this.onStats);
    for (const name of ["scoring", ...OPTIONS]) m.off(`change:${name}`, this.onOptions);
  }

  renderChrome() {
    const b = this.board;
    b.fillSelect(
      this.scoringSel,
      "settings.scoring.label",
      ["standard", "vegas", "none"].map((v) => [v, b.t(`settings.scoring.${v}`)]),
      b.model.get("scoring"),
    );
    for (const name of OPTIONS) {
      const box = this.checks[name];
      box.checked = Boolean(b.model.get(name));
      /** @type {HTMLElement} */ (box.nextElementSibling).textContent = b.t(`settings.${name}.label`);
    }
  }

  /** @param {View} v */
  renderInfo(v) {
    const b = this.board;
    const s = v.score;
    b.scoreEl.hidden = !s;
    b.scoreEl.textContent = "";
    if (s) {
      b.scoreEl.append(`${b.t("counter.label.score")}: `, this.number(s.value));
      if (s.total !== null && s.total !== undefined) {
        b.scoreEl.append(` · ${b.t("counter.label.vegas_total")}: `, this.number(s.total));
      }
      b.scoreEl.dataset.mode = s.mode;
    }
    const auto = b.buttons.auto_complete;
    auto.hidden = !v.auto_complete;
    auto.disabled = !v.auto_complete || v.status !== "playing";
  }

  /** @param {number} n */
  number(n) {
    const e = h("span", "kw-score-value", { dir: "ltr" });
    e.textContent = this.board.num(n);
    return e;
  }

  /**
   * A click on a card with one-click moves on: play the move Python published for it.
   * @param {Pick|null} pick
   * @returns {boolean} true if a move was sent
   */
  oneClick(pick) {
    const b = this.board;
    if (!pick || !b.model.get("one_click")) return false;
    const entries = (b.view().quick || {})[pick.src] || [];
    const m = entries.find((e) => e[0] === pick.n);
    if (!m) return false;
    b.sendMove(m[1]);
    return true;
  }

  openStats() {
    const b = this.board;
    this.confirmReset = false;
    if (b.panel !== "stats") b.send("open_stats"); // re-read: another kernel may have written
    b.togglePanel("stats");
  }

  /** @param {number|null} value @param {string} kind */
  format(value, kind) {
    const b = this.board;
    if (value === null || value === undefined) return "—";
    if (kind === "time") return b.duration(value * 1000);
    if (kind === "pct") {
      const meta = b.strs().meta || {};
      const opts = { style: "percent", maximumFractionDigits: 1 };
      if (meta.numbering) Object.assign(opts, { numberingSystem: meta.numbering });
      try {
        return new Intl.NumberFormat(b.lang(), opts).format(value);
      } catch (e) {
        return `${Math.round(value * 100)}%`;
      }
    }
    return b.num(value);
  }

  /**
   * The statistics panel: one column per draw mode, one row per figure.
   * @param {HTMLElement} p
   * @param {HTMLElement} close
   */
  renderStats(p, close) {
    const b = this.board;
    const sv = b.model.get("stats_view") || {};
    const title = h("h3", "kw-stats-title");
    title.textContent = b.t("stats.title");
    p.append(title);
    if (sv.off) {
      const off = h("p", "kw-stats-off");
      off.textContent = b.t("stats.off");
      p.append(off, close);
      return;
    }
    /** @type {any[]} */
    const rows = sv.rows || [];
    const table = h("table", "kw-stats-table");
    const head = h("tr");
    const corner = h("th", "", { scope: "col" });
    corner.textContent = b.t("stats.mode");
    head.append(corner);
    for (const r of rows) {
      const th = h("th", "", { scope: "col", "data-draw": String(r.draw) });
      th.textContent = b.t(r.draw === 3 ? "option.draw.three" : "option.draw.one");
      head.append(th);
    }
    const thead = h("thead");
    thead.append(head);
    const tbody = h("tbody");
    for (const [key, field, kind] of STAT_ROWS) {
      const tr = h("tr", `kw-stats-${field}`);
      const th = h("th", "", { scope: "row" });
      th.textContent = b.t(key);
      tr.append(th);
      for (const r of rows) {
        const td = h("td", "", { "data-field": field, "data-draw": String(r.draw) });
        const value = h("span", "", { dir: "ltr" }); // a minus sign or a clock stays in place
        value.textContent = this.format(r[field], kind);
        td.append(value);
        tr.append(td);
      }
      tbody.append(tr);
    }
    table.append(thead, tbody);
    p.append(table);
    const note = h("p", "kw-stats-note");
    const played = rows.reduce((n, r) => n + (r.played || 0), 0);
    note.textContent = played ? b.t("stats.note") : b.t("stats.empty");
    p.append(note);
    for (const [key, args] of [
      ["stats.skipped", sv.skipped ? { number: sv.skipped } : null],
      ["stats.error", sv.error ? { detail: sv.error } : null],
    ]) {
      if (!args) continue;
      const warn = h("p", "kw-stats-warning", { role: "alert" });
      warn.textContent = b.t(/** @type {string} */ (key), /** @type {any} */ (args));
      p.append(warn);
    }
    const actions = h("div", "kw-stats-actions");
    if (this.confirmReset) {
      const q = h("span", "kw-confirm-text");
      q.textContent = b.t("dialog.confirm_reset_stats");
      const ok = h("button", "kw-btn kw-btn-ok", { type: "button" });
      ok.textContent = b.t("dialog.ok");
      ok.addEventListener("click", () => {
        this.confirmReset = false;
        b.send("reset_stats");
        b.renderPanel();
      });
      const cancel = h("button", "kw-btn kw-btn-cancel", { type: "button" });
      cancel.textContent = b.t("dialog.cancel");
      cancel.addEventListener("click", () => {
        this.confirmReset = false;
        b.renderPanel();
      });
      actions.append(q, ok, cancel);
      setTimeout(() => ok.focus(), 0);
    } else {
      const reset = h("button", "kw-btn kw-btn-reset-stats", { type: "button" });
      reset.textContent = b.t("stats.reset.label");
      reset.title = b.t("stats.reset.tooltip");
      reset.disabled = !played;
      reset.addEventListener("click", () => {
        this.confirmReset = true;
        b.renderPanel();
      });
      actions.append(reset, close);
    }
    p.append(actions);
  }
}

export default {
  /** @param {{model: any, el: HTMLElement}} ctx */
  render({ model, el }) {
    const board = new Board(model, el);
    return () => board.destroy();
  },
};
