// klondike-widget front end: draws what Python publishes, sends intents back.
// No rules live here: the legal moves come from the `view` trait, fixed labels from `strings`, and
// every text with a number or a name in it comes finished from Python (`view.texts`, `view.line`).
// One plain ES module, no framework, no build step (anywidget loads a single module; a bundler
// would need node on every machine that builds the package). Inside it, small collaborator
// classes with one job each, wired together by `Board`:
//   I18n      fixed texts by key, live numbers and the clock in the active language (every
//             text with a number or a name in it comes finished from Python)
//   CardArt   the SVG card faces (pip layouts, court pictures) drawn by us, and the backs
//   Motion    cards sliding to their places (FLIP) and the cascade when a game is won
//   Drag      pointer drags with an opaque ghost that is never clipped
//   Keys      the keyboard: every key pressed inside the widget stays in the widget
//   Panels    the overlay panels (rules, deal number, confirm, settings, keys); a new panel is
//             one `board.panels.register(name, spec)` call
//   LineView  the analysis panel (a solver line stepped through)
//   Board     the table itself: piles, marks, info line, intents
//   PlayExtras scoring, statistics panel, one-click moves, auto-complete (klondike_widget.play)
//   ReviewPanel the game review: its button, its progress, the losing move marked; deal level
//   LessonPanel a lesson's live board: the question, the verdict, hint, show me, start again
// Per-view state (selection, drag, focus, animation) stays here; everything else is in traits.

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
 *   quick: Object<string, [number, string][]>, auto_complete: boolean,
 *   review: {running: boolean, decided: number, total: number}|null, reviewable: boolean,
 *   lesson: LessonState|null, texts: ViewTexts
 * }} View
 *   `waste` holds only the waste cards to show (Python decides the draw-3 fan from the history).
 * @typedef {{
 *   piles: Object<string, string>, deal: string|null, hint: string|null,
 *   finishing: string|null, win: string|null, review: string|null
 * }} ViewTexts  view.texts: every text with a number or a name in it, finished by Python in the
 *   active language (klondike_widget/widget/texts.py): each pile's accessible name by pile id,
 *   the info line's deal, the hint, the Finish progress said, the win message, the review's
 *   progress. This side never fills a template nor picks a plural form.
 * @typedef {{id: number, k: number, total: number, auto: boolean, playable: boolean,
 *   next: {src: string, n: number, dst: string}|null, text: string, said: string,
 *   opened: string}} LineStep  view.line: the step shown, and in words (finished by Python):
 *   `text` "Step 3 of 142", `said` when the step is taken, `opened` when the panel opens
 * @typedef {{id: number, moves: string, first: number, words: string[], why?: string[],
 *   runs?: [number, number, string][], title?: string, play?: string,
 *   marks?: [number, string][], summary?: string}} LineView  the `line_view`
 *   trait: every move in notation, words for moves first.. first+words.length-1, what each achieves
 *   and the runs of taps; a game review names its own title and "play" button keys, marks the
 *   losing move ([move index, words]) and says what it found (summary)
 * @typedef {{key: string, title: string, question: string, kind: string, hint: string|null,
 *   shown: boolean, verdict: {ok: boolean|null, text: string}|null}} LessonState  view.lesson:
 *   a lesson board's question and verdict (kind "move"/"line" played here, "answer" in a cell)
 * @typedef {{src: string, n: number}} Pick
 * @typedef {{meta: Object<string, any>, strings: Object<string, string>, rules: any,
 *   cards: string[], selected: string[], available: {code: string, name: string, dir: string}[]
 * }} Strings  the `strings` trait: fixed texts by key, each card's name and what is said when
 *   it is picked up (by card id), the rules page, the languages
 * @typedef {{kind: "notice", n: number, key: string, args: Object<string, any>, text: string,
 *   cid: string|null}} Notice  a custom message: `text` finished by Python, `key` its strings key
 * @typedef {{
 *   button?: string, el?: HTMLElement, build?: (el: HTMLElement) => void,
 *   focus?: (el: HTMLElement) => HTMLElement|null, noClose?: boolean, label?: string
 * }} PanelSpec  a panel: a toolbar button that toggles it, and either a persistent element
 *   or a `build` that fills the shared panel box each time it opens; its dialog is named by
 *   its first heading (or question), else by the text `label`
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
const BACKS = ["lattice", "waves", "stars"];
const DRAG_THRESHOLD = 5;
/** While Finish plays, its progress is said at most this often (ms). */
const FINISH_SAY_MS = 2500;
/** Autoplay paces of the analysis panel (ms per step). */
const STEP_PACES = [
  ["settings.animation.slow", 1500],
  ["settings.animation.normal", 700],
  ["settings.animation.fast", 250],
];
const SVG_NS = "http://www.w3.org/2000/svg";

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

function reducedMotion() {
  return Boolean(window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches);
}

// -- I18n: every text the widget shows, in the active language -----------------------------

class I18n {
  /** @param {any} model */
  constructor(model) {
    this.model = model;
  }

  /** @returns {Strings} */
  strs() {
    return this.model.get("strings") || { meta: {}, strings: {}, rules: null, cards: [], selected: [], available: [] };
  }

  lang() {
    return this.model.get("locale") || "en";
  }

  rtl() {
    const meta = this.strs().meta || {};
    return meta.dir === "rtl";
  }

  /**
   * The fixed text of `key` in the active language (a label, a tooltip). Texts with numbers
   * or names in them come finished from Python (`view.texts`, `view.line`, a notice's `text`,
   * `strings.selected`): this side never fills a template nor picks a plural form.
   * @param {string} key
   */
  t(key) {
    const table = this.strs().strings || {};
    const text = table[key];
    return text === undefined ? key : text;
  }

  /**
   * What a screen reader hears when `card` is picked up ("Selected: nine of hearts.").
   * @param {number} card
   */
  selected(card) {
    return (this.strs().selected || [])[card] || "";
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

  /**
   * A number for a line of text: the locale's digits, a true minus sign (U+2212) and the
   * locale's own direction marks, isolated (`<bdi>`) so that it never takes its sign to the
   * wrong side in a right-to-left sentence ("99-").
   * @param {number} n
   * @param {string} [cls]
   */
  numEl(n, cls) {
    const meta = this.strs().meta || {};
    const opts = meta.numbering ? { numberingSystem: meta.numbering } : {};
    const e = h("bdi", cls || "kw-num");
    try {
      const parts = new Intl.NumberFormat(this.lang(), opts).formatToParts(n);
      e.textContent = parts.map((p) => (p.type === "minusSign" ? p.value.replace("-", "\u2212") : p.value)).join("");
    } catch (err) {
      e.textContent = String(n).replace("-", "\u2212");
    }
    return e;
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
}

// -- CardArt: card faces drawn as SVG (our own drawing: pips, indices, court pictures) ---------

/** Suit shapes in a 100 x 100 box. */
const SUIT_SHAPES = {
  h: '<path d="M50 93C22 71 4 53 4 31C4 15 16 5 29 5C39 5 46 11 50 20C54 11 61 5 71 5C84 5 96 15 96 31C96 53 78 71 50 93Z"/>',
  d: '<path d="M50 2L88 50L50 98L12 50Z"/>',
  s: '<path d="M50 3C70 25 96 41 96 63C96 78 85 87 73 87C64 87 57 82 53 75C54 85 58 92 67 98H33C42 92 46 85 47 75C43 82 36 87 27 87C15 87 4 78 4 63C4 41 30 25 50 3Z"/>',
  c: '<circle cx="50" cy="27" r="21"/><circle cx="26" cy="61" r="21"/><circle cx="74" cy="61" r="21"/><path d="M45 48H55C55 72 59 87 69 98H31C41 87 45 72 45 48Z"/>',
};
const RED = "#c62828";
const BLACK = "#1b1b1b";
const GOLD = "#d9a520";
const SKIN = "#f4d4b4";
/** Pip centres (x, y) on a 100 x 140 card for ranks 2..10 (index 1..9); lower half turned. */
const PIPS = (() => {
  const L = 36;
  const C = 50;
  const R = 64;
  const [t, b, m] = [30, 110, 70];
  const q = [30, 56.7, 83.3, 110];
  const corners = [[L, t], [R, t], [L, b], [R, b]];
  const six = [...corners, [L, m], [R, m]];
  const eight = [[L, q[0]], [R, q[0]], [L, q[1]], [R, q[1]], [L, q[2]], [R, q[2]], [L, q[3]], [R, q[3]]];
  return [
    null,
    [[C, t], [C, b]],
    [[C, t], [C, m], [C, b]],
    corners,
    [...corners, [C, m]],
    six,
    [...six, [C, 49]],
    [...six, [C, 49], [C, 91]],
    [...eight, [C, m]],
    [...eight, [C, 42], [C, 98]],
  ];
})();

const CardArt = {
  /** @type {Map<string, string>} */
  cache: new Map(),

  /**
   * A suit shape of `size` centred on (x, y), turned upside down if `flip`.
   * @param {string} suit @param {number} x @param {number} y @param {number} size
   * @param {boolean} [flip]
   */
  pip(suit, x, y, size, flip) {
    const turn = flip ? " rotate(180 50 50)" : "";
    return `<g transform="translate(${x - size / 2} ${y - size / 2}) scale(${size / 100})${turn}">${SUIT_SHAPES[suit]}</g>`;
  },

  /** The corner index: rank over a small suit, top-left (and turned, bottom-right). */
  corner(/** @type {string} */ rank, /** @type {string} */ suit, /** @type {boolean} */ right) {
    // Large enough to read on a 35 px card (a phone-wide notebook); "10" is squeezed a little.
    const wide = rank.length > 1 ? ' textLength="25" lengthAdjust="spacingAndGlyphs"' : "";
    const one =
      `<text x="15" y="28" text-anchor="middle" font-size="29" font-weight="700"` +
      ` font-family="DejaVu Sans, Arial, sans-serif"${wide}>${rank}</text>` +
      this.pip(suit, 15, 41, 15);
    const extra = right ? `<g transform="translate(70 0)">${one}</g>` : "";
    return `<g>${one}</g><g transform="rotate(180 50 70)">${one}</g>${extra}`;
  },

  /**
   * The face for a narrow widget (cards of 30 to 50 px): a big rank top-left and a big suit
   * top-right, both within the top 34% that a covering card leaves visible, and one large
   * suit below.
   * @param {string} rank @param {string} suit
   */
  compact(rank, suit) {
    // Anchored in the middle: "start" would follow a right-to-left board off the card.
    const wide = rank.length > 1 ? ' textLength="38" lengthAdjust="spacingAndGlyphs"' : "";
    return (
      `<g class="kw-face-compact">` +
      `<text x="21" y="44" text-anchor="middle" font-size="50" font-weight="700"` +
      ` font-family="DejaVu Sans, Arial, sans-serif"${wide}>${rank}</text>` +
      `${this.pip(suit, 78, 24, 36)}${this.pip(suit, 50, 98, 58)}</g>`
    );
  },

  /**
   * A court card's picture: a framed figure, drawn twice (head to head) like a real card.
   * @param {number} rank  10 jack, 11 queen, 12 king
   * @param {string} suit
   * @param {string} ink
   */
  court(rank, suit, ink) {
    const robe = ink === RED ? RED : "#27406b";
    const trim = ink === RED ? "#27406b" : RED;
    let head = "";
    if (rank === 12) {
      // King: a pointed crown and a beard.
      head =
        `<path d="M39 33L40 21L45 27L50 19L55 27L60 21L61 33Z" fill="${GOLD}" stroke="#7a5a10" stroke-width="0.8"/>` +
        `<circle cx="50" cy="40" r="8.5" fill="${SKIN}" stroke="#333" stroke-width="0.7"/>` +
        `<path d="M42 42Q50 56 58 42Q54 47 50 47Q46 47 42 42Z" fill="#7b4a22"/>`;
    } else if (rank === 11) {
      // Queen: a round-tipped crown and long hair.
      head =
        `<path d="M40 40Q38 27 50 27Q62 27 60 40L62 52Q56 50 56 44L44 44Q44 50 38 52Z" fill="#b07a2a"/>` +
        `<circle cx="50" cy="40" r="8" fill="${SKIN}" stroke="#333" stroke-width="0.7"/>` +
        `<path d="M42 32L43 23L47 28L50 22L53 28L57 23L58 32Z" fill="${GOLD}" stroke="#7a5a10" stroke-width="0.8"/>` +
        `<circle cx="43" cy="23" r="1.6" fill="${GOLD}"/><circle cx="50" cy="22" r="1.6" fill="${GOLD}"/><circle cx="57" cy="23" r="1.6" fill="${GOLD}"/>`;
    } else {
      // Jack: a cap with a feather.
      head =
        `<circle cx="50" cy="40" r="8" fill="${SKIN}" stroke="#333" stroke-width="0.7"/>` +
        `<path d="M40 36Q42 25 50 25Q58 25 61 35Z" fill="${robe}"/>` +
        `<path d="M58 29Q66 20 70 22Q64 25 60 33Z" fill="${GOLD}"/>`;
    }
    const body =
      `<path d="M28 70Q28 53 50 51Q72 53 72 70Z" fill="${robe}"/>` +
      `<path d="M44 52L50 70L56 52" fill="none" stroke="${GOLD}" stroke-width="2"/>` +
      `<path d="M30 66H70" stroke="${trim}" stroke-width="2"/>`;
    const half = body + head + this.pip(suit, 33, 27, 11);
    return (
      `<rect x="23" y="15" width="54" height="110" rx="3" fill="#f7efd9" stroke="${ink}" stroke-width="1.2"/>` +
      `<g>${half}</g><g transform="rotate(180 50 70)">${half}</g>` +
      `<path d="M23 70H77" stroke="${ink}" stroke-width="0.8"/>`
    );
  },

  /**
   * The face of card `card` as an SVG string (cached).
   * @param {number} card  0..51: suit * 13 + rank
   * @param {string} rankLabel  the published rank label ("A", "2", .., "K")
   * @param {boolean} [standalone]  with xmlns and size, for drawing into a canvas
   * @param {boolean} [right]  an index in the top-right corner too (the under-cards of a
   *   waste fanned to the left, in a mirrored board, show their right edge)
   */
  face(card, rankLabel, standalone, right) {
    const key = `${card}|${rankLabel}|${standalone ? 1 : 0}|${right ? 1 : 0}`;
    const hit = this.cache.get(key);
    if (hit) return hit;
    const suit = SUITS[Math.floor(card / 13)];
    const rank = card % 13;
    const ink = suit === "d" || suit === "h" ? RED : BLACK;
    let middle = "";
    if (rank === 0) middle = this.pip(suit, 50, 70, suit === "s" ? 50 : 40);
    else if (rank < 10) {
      middle = PIPS[rank].map(([x, y]) => this.pip(suit, x, y, 19, y > 70)).join("");
    } else middle = this.court(rank, suit, ink);
    const size = standalone ? ` xmlns="${SVG_NS}" width="200" height="280"` : "";
    const bg = standalone ? '<rect x="0.5" y="0.5" width="99" height="139" rx="7" fill="#fdfdfb" stroke="#8a8f94"/>' : "";
    // Two drawings: the full face, and (shown instead on a narrow widget, see widget.css) a
    // phone-sized one whose big rank and suit fill the strip left visible in a column.
    const svg =
      `<svg class="kw-face"${size} viewBox="0 0 100 140" dir="ltr" aria-hidden="true" fill="${ink}">` +
      `${bg}<g class="kw-face-full">${this.corner(rankLabel, suit, right)}${middle}</g>` +
      `${standalone ? "" : this.compact(rankLabel, suit)}</svg>`;
    this.cache.set(key, svg);
    return svg;
  },
};

// -- Motion: cards slide to their new places; the cascade when a game is won ---------------

class Motion {
  /** @param {Board} board */
  constructor(board) {
    this.board = board;
    /** Rects to slide from on the next render (a dropped drag's ghost), by card id. */
    /** @type {Map<string, DOMRect>} */
    this.from = new Map();
    this.cascadeFrame = 0;
    /** @type {HTMLCanvasElement|null} */
    this.canvas = null;
  }

  /**
   * Where the face-up cards of `piles` are now (a moved card leaves and enters a changed pile).
   * @param {string[]} piles
   * @returns {Map<string, DOMRect>}
   */
  rects(piles) {
    const out = new Map();
    if (reducedMotion()) return out;
    for (const id of piles) {
      for (const c of this.board.pileEls[id].querySelectorAll(".kw-card[data-card]")) {
        out.set(/** @type {HTMLElement} */ (c).dataset.card, c.getBoundingClientRect());
      }
    }
    for (const [card, rect] of this.from) out.set(card, rect);
    return out;
  }

  /**
   * FLIP: cards that changed place glide from where they were.
   * @param {Map<string, DOMRect>} before
   * @param {View} v
   * @param {string[]} piles  the piles drawn again
   */
  slide(before, v, piles) {
    this.from.clear();
    if (!before.size || reducedMotion()) return;
    const pace = Number(this.board.model.get("pace"));
    const duration = v.status === "finishing" ? Math.min(180, pace * 0.8) : 170;
    if (duration < 20) return;
    const pileEls = this.board.pileEls;
    const cards = piles.flatMap((id) => Array.from(pileEls[id].querySelectorAll(".kw-card[data-card]")));
    for (const c of cards) {
      const e = /** @type {HTMLElement} */ (c);
      const old = before.get(/** @type {string} */ (e.dataset.card));
      if (!old || !e.animate) continue;
      const now = e.getBoundingClientRect();
      const dx = old.left - now.left;
      const dy = old.top - now.top;
      if (Math.abs(dx) < 1 && Math.abs(dy) < 1) continue;
      e.animate([{ transform: `translate(${dx}px, ${dy}px)`, zIndex: 50 }, { transform: "none", zIndex: 50 }], {
        duration,
        easing: "ease-out",
      });
    }
  }

  /**
   * The win: the cards leave the foundations one by one, King first, and bounce across the
   * felt leaving trails (drawn on a canvas behind the "You won!" box). Off with reduced motion.
   */
  cascade() {
    this.stop();
    if (reducedMotion()) return;
    const b = this.board;
    const table = b.table;
    const box = table.getBoundingClientRect();
    if (!box.width || !box.height) return;
    const canvas = /** @type {HTMLCanvasElement} */ (h("canvas", "kw-cascade", { "aria-hidden": "true" }));
    const ratio = window.devicePixelRatio || 1;
    canvas.width = Math.round(box.width * ratio);
    canvas.height = Math.round(box.height * ratio);
    table.insertBefore(canvas, b.winEl);
    this.canvas = canvas;
    const ctx = canvas.getContext("2d");
    if (!ctx) return;
    ctx.scale(ratio, ratio);
    const deck = b.model.get("deck") || [];
    const cardW = b.pileEls.fc.getBoundingClientRect().width;
    const cardH = cardW * 1.4;
    /** @type {{img: HTMLImageElement, x: number, y: number}[]} */
    const queue = [];
    for (let rank = 12; rank >= 0; rank--) {
      FOUNDATIONS.forEach((id, suit) => {
        const card = suit * 13 + rank;
        const img = new Image();
        img.src = "data:image/svg+xml;charset=utf-8," + encodeURIComponent(CardArt.face(card, (deck[card] || ["?"])[0], true));
        const r = b.pileEls[id].getBoundingClientRect();
        queue.push({ img, x: r.left - box.left, y: r.top - box.top });
      });
    }
    let current = null;
    let started = performance.now();
    const step = () => {
      if (!current) {
        const next = queue.shift();
        if (!next || performance.now() - started > 30000) return this.stopSoon();
        const dir = Math.random() < 0.5 ? -1 : 1;
        current = { ...next, vx: dir * (2 + Math.random() * 4), vy: -Math.random() * 6 };
      }
      const c = current;
      c.vy += 0.45;
      c.x += c.vx;
      c.y += c.vy;
      if (c.y + cardH > box.height) {
        c.y = box.height - cardH;
        c.vy = -c.vy * 0.72;
      }
      if (c.img.complete) ctx.drawImage(c.img, c.x, c.y, cardW, cardH);
      if (c.x + cardW < 0 || c.x > box.width) current = null;
      this.cascadeFrame = requestAnimationFrame(step);
    };
    this.cascadeFrame = requestAnimationFrame(step);
  }

  stopSoon() {
    this.cascadeFrame = 0;
  }

  stop() {
    if (this.cascadeFrame) cancelAnimationFrame(this.cascadeFrame);
    this.cascadeFrame = 0;
    if (this.canvas) this.canvas.remove();
    this.canvas = null;
  }
}

// -- Drag: pick up cards with the pointer; an opaque ghost follows it above everything -------

class Drag {
  /** @param {Board} board */
  constructor(board) {
    this.board = board;
    /** The pointer press in progress, or null. */
    this.d = null;
    /** @type {HTMLElement|null} the ghost left at the drop point until the board answers */
    this.landing = null;
    this.landingTimer = 0;
    /** @type {{x: number, y: number, key: string, at: number}|null} */
    this.lastTap = null;
  }

  /** @param {PointerEvent} ev */
  down(ev) {
    if (ev.button !== 0) return;
    const b = this.board;
    const hit = b.hit(ev.target);
    if (!hit) return;
    b.focusPile = hit.id;
    const pick = hit.faceUp ? b.pickAt(hit.id, hit.index) : null;
    this.d = { pick, x: ev.clientX, y: ev.clientY, hit, moving: false, ghost: null, id: ev.pointerId, cards: [], seq: 0 };
  }

  /** @param {PointerEvent} ev */
  move(ev) {
    const d = this.d;
    if (!d || !d.pick || d.id !== ev.pointerId) return;
    const dx = ev.clientX - d.x;
    const dy = ev.clientY - d.y;
    if (!d.moving) {
      if (Math.hypot(dx, dy) < DRAG_THRESHOLD) return;
      this.start(d, ev);
    }
    ev.preventDefault();
    if (d.ghost) d.ghost.style.translate = `${dx}px ${dy}px`;
  }

  /**
   * Lift the picked cards: the originals hide, a copy of them follows the pointer in a layer
   * on the page's body (opaque, above the notebook, never cut off by the felt or the cell).
   * @param {any} d @param {PointerEvent} ev
   */
  start(d, ev) {
    const b = this.board;
    this.clearLanding();
    d.moving = true;
    b.pick = d.pick;
    b.renderMarks();
    try {
      b.root.setPointerCapture(ev.pointerId);
    } catch (e) {
      /* capture is an optimisation */
    }
    const els = b.runEls(d.pick.src, d.pick.n);
    d.cards = els.map((e) => /** @type {HTMLElement} */ (e).dataset.card);
    d.seq = b.view().seq;
    d.view = b.view();
    const first = els[0].getBoundingClientRect();
    const ghost = h("div", "kw-ghost", { "aria-hidden": "true", "data-back": b.model.get("back") || "lattice" });
    ghost.style.left = `${first.left}px`;
    ghost.style.top = `${first.top}px`;
    for (const e of els) {
      const r = e.getBoundingClientRect();
      const copy = /** @type {HTMLElement} */ (e.cloneNode(true));
      copy.classList.remove("kw-picked", "kw-hint-src", "kw-next-src");
      copy.removeAttribute("data-pile");
      Object.assign(copy.style, {
        left: `${r.left - first.left}px`,
        top: `${r.top - first.top}px`,
        width: `${r.width}px`,
        height: `${r.height}px`,
      });
      ghost.append(copy);
      e.classList.add("kw-lifted");
    }
    document.body.append(ghost);
    d.ghost = ghost;
  }

  /** After a render during a drag: the redrawn originals stay hidden. */
  relift() {
    const d = this.d && this.d.moving ? this.d : null;
    const ids = d ? d.cards : this.landing ? this.landing.dataset.cards.split(",") : [];
    for (const id of ids) {
      const e = this.board.root.querySelector(`.kw-table .kw-card[data-card="${id}"]`);
      if (e) e.classList.add("kw-lifted");
    }
  }

  /** @param {PointerEvent} ev */
  up(ev) {
    const d = this.d;
    if (!d || d.id !== ev.pointerId) return;
    this.d = null;
    const b = this.board;
    if (d.moving) {
      const under = document.elementFromPoint(ev.clientX, ev.clientY);
      const hit = b.hit(under);
      if (hit && this.drop(d, hit.id)) return;
      this.unlift(d);
      b.pick = null;
      b.renderMarks();
      return;
    }
    // Touch and pen have no dependable dblclick: two taps on the same card within 400 ms.
    if (ev.pointerType !== "mouse" && d.hit.faceUp && !b.model.get("one_click")) {
      const now = performance.now();
      const key = `${d.hit.id}:${d.hit.index}`;
      if (this.lastTap && this.lastTap.key === key && now - this.lastTap.at < 400) {
        this.lastTap = null;
        if (b.toFoundation(d.hit)) return;
      } else {
        this.lastTap = { x: ev.clientX, y: ev.clientY, key, at: now };
      }
    }
    b.clickOn(d.hit, d.pick);
  }

  /**
   * Drop the dragged cards on pile `id`; true if a move was sent. The move comes from the
   * view on the screen when the cards are still there; otherwise from the view the drag began
   * on (an update landed meanwhile), and Python applies it if it still means the same move.
   * @param {any} d @param {string} id
   */
  drop(d, id) {
    const b = this.board;
    const now = b.view();
    const same = b.topCards(now, d.pick.src, d.pick.n).join(",") === d.cards.join(",");
    const v = same ? now : d.view;
    const m = ((v.legal || {})[d.pick.src] || []).find((x) => x[0] === d.pick.n && x[1] === id);
    if (!m) return false;
    b.pick = null;
    b.send("move", { move: m[2] }, v.seq);
    // The ghost waits at the drop point; the cards slide from there when the board answers.
    this.landing = d.ghost;
    d.ghost.dataset.cards = d.cards.join(",");
    clearTimeout(this.landingTimer);
    this.landingTimer = setTimeout(() => this.clearLanding(), 2000);
    return true;
  }

  /** The board answered (or gave up waiting): the ghost goes, the cards show where they are. */
  land() {
    const g = this.landing;
    if (!g) return;
    const ids = (g.dataset.cards || "").split(",");
    const copies = Array.from(g.children);
    ids.forEach((id, i) => {
      const c = copies[i];
      if (c) this.board.motion.from.set(id, c.getBoundingClientRect());
    });
    this.clearLanding();
  }

  clearLanding() {
    clearTimeout(this.landingTimer);
    const g = this.landing;
    this.landing = null;
    if (g) {
      g.remove();
      for (const e of this.board.root.querySelectorAll(".kw-lifted")) e.classList.remove("kw-lifted");
    }
  }

  /** @param {any} d */
  unlift(d) {
    if (d.ghost) d.ghost.remove();
    for (const e of this.board.root.querySelectorAll(".kw-lifted")) e.classList.remove("kw-lifted");
  }

  cancel() {
    const d = this.d;
    this.d = null;
    if (d && d.moving) this.unlift(d);
  }

  destroy() {
    this.cancel();
    this.clearLanding();
  }
}

// -- Keys: the keyboard. Every key pressed inside the widget stays in the widget -------------

/** The shortcut list of the `?` panel: [keys as printed on a keyboard, text key]. */
const KEY_HELP = [
  ["← →", "keys.arrows_lr"],
  ["↑ ↓", "keys.arrows_ud"],
  ["Enter", "keys.enter"],
  ["Esc", "keys.escape"],
  ["U  ·  Ctrl+Z", "button.undo.tooltip"],
  ["Y  ·  Ctrl+Shift+Z", "button.redo.tooltip"],
  ["H", "button.hint.tooltip"],
  ["F", "button.finish.tooltip"],
  ["N", "button.new_deal.tooltip"],
  ["?", "keys.help"],
  ["← →  Home  End", "keys.line"],
];

class Keys {
  /** @param {Board} board */
  constructor(board) {
    this.board = board;
  }

  /**
   * Keydown anywhere in the widget. JupyterLab listens for its command-mode shortcuts (a, b,
   * m, x, d d, Shift+Enter, ...) on the document in the bubbling phase, and its key bindings
   * match the focused element itself (so `data-lm-suppress-shortcuts`, which only stops the
   * search at an ancestor, is not enough). Stopping the propagation here keeps every key,
   * used by the game or not, from reaching the notebook; the browser's own handling (Tab,
   * typing in a field) still happens.
   * @param {KeyboardEvent} ev
   */
  onKey(ev) {
    ev.stopPropagation();
    const b = this.board;
    const target = /** @type {HTMLElement} */ (ev.target);
    const field = target && (target.tagName === "INPUT" || target.tagName === "SELECT" || target.tagName === "TEXTAREA");
    if (ev.key === "Escape" && b.panels.current) return this.handled(ev, () => b.panels.close(true));
    if (ev.key === "Escape" && !b.winEl.hidden) return this.handled(ev, () => b.closeWin());
    if (field) {
      if (ev.key === "Enter" && target.tagName === "INPUT" && /** @type {HTMLInputElement} */ (target).form) {
        const form = /** @type {HTMLFormElement} */ (/** @type {HTMLInputElement} */ (target).form);
        return this.handled(ev, () => form.requestSubmit());
      }
      return;
    }
    if (ev.altKey || ev.metaKey) return;
    const key = ev.key;
    const ctrl = ev.ctrlKey;
    const lower = key.length === 1 ? key.toLowerCase() : key;
    if (ctrl && lower === "z") return this.handled(ev, () => b.send(ev.shiftKey ? "redo" : "undo"));
    if (ctrl) return;
    if (key === "?" || key === "؟") return this.handled(ev, () => b.panels.toggle("keys"));
    /** @type {Object<string, () => void>} */
    const commands = {
      u: () => b.send("undo"),
      y: () => b.send("redo"),
      h: () => b.send("hint"),
      f: () => b.finishOrStop(),
      n: () => b.confirmNewDeal(),
    };
    const line = b.view().line;
    if (line && ["ArrowLeft", "ArrowRight", "Home", "End"].includes(key) && !ev.shiftKey) {
      // Left/Right step through the line (swapped in right-to-left text), Home/End jump.
      const forward = (key === "ArrowRight") !== b.i18n.rtl();
      const to = { Home: 0, End: line.total }[key];
      const k = to !== undefined ? to : line.k + (forward ? 1 : -1);
      return this.handled(ev, () => b.lineView.stepTo(k));
    }
    if (commands[lower] && !target.closest(".kw-toolbar, .kw-panel, .kw-line")) return this.handled(ev, commands[lower]);
    const onBoard = target.closest && target.closest(".kw-pile");
    if (!onBoard) return;
    const mirrored = b.mirrorBoard();
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
        b.pick = null;
        b.renderMarks();
      });
    }
  }

  /**
   * @param {KeyboardEvent} ev
   * @param {() => void} fn
   */
  handled(ev, fn) {
    ev.preventDefault();
    fn();
  }

  /** @param {number} step */
  moveFocus(step) {
    const b = this.board;
    const i = PILES.indexOf(b.focusPile);
    b.focusPile = PILES[(i + step + PILES.length) % PILES.length];
    b.renderMarks();
    b.pileEls[b.focusPile].focus();
  }

  /**
   * Up/Down: with a column run picked, grow or shrink it; otherwise jump between the rows.
   * @param {boolean} up
   */
  upDown(up) {
    const b = this.board;
    const id = b.focusPile;
    if (b.pick && b.pick.src === id && id[0] === "t") {
      const [, cards] = b.view().cols[COLUMNS.indexOf(id)];
      const n = Math.min(cards.length, Math.max(1, b.pick.n + (up ? 1 : -1)));
      b.pick = { src: id, n };
      b.renderMarks();
      b.say(b.pickSaid(b.pick));
      return;
    }
    /** @type {Object<string, string>} */
    const down = { s: "t1", w: "t2", fc: "t4", fd: "t5", fh: "t6", fs: "t7" };
    /** @type {Object<string, string>} */
    const upTo = { t1: "s", t2: "w", t3: "w", t4: "fc", t5: "fd", t6: "fh", t7: "fs" };
    const next = up ? upTo[id] : down[id];
    if (next) {
      b.focusPile = next;
      b.renderMarks();
      b.pileEls[next].focus();
    }
  }

  /** Enter/Space on the focused pile: tap the stock, pick, or drop. */
  activate() {
    const b = this.board;
    const id = b.focusPile;
    const v = b.view();
    if (b.pick) {
      if (b.dropOn(id)) return;
      b.pick = null;
      b.renderMarks();
      return;
    }
    if (id === "s") {
      const m = (v.legal.s || [])[0];
      if (m) b.sendMove(m[2]);
      return;
    }
    const p = b.pileEls[id];
    const cards = p.querySelectorAll(".kw-card[data-card]");
    const top = /** @type {HTMLElement|undefined} */ (cards[cards.length - 1]);
    if (!top) return;
    b.pick = b.pickAt(id, Number(top.dataset.index));
    b.renderMarks();
    if (b.pick) b.say(b.pickSaid(b.pick));
  }

  /** Fill the `?` panel: the keys and what they do, in the active language. */
  buildHelp(/** @type {HTMLElement} */ el) {
    const t = (/** @type {string} */ k) => this.board.i18n.t(k);
    const title = h("h3", "kw-panel-title");
    title.textContent = t("keys.title");
    const list = h("dl", "kw-keys");
    for (const [keys, text] of KEY_HELP) {
      const dt = h("dt");
      for (const part of keys.split("  ")) {
        const k = h("kbd", "", { dir: "ltr" });
        k.textContent = part.trim();
        dt.append(k);
      }
      const dd = h("dd");
      dd.textContent = t(text);
      list.append(dt, dd);
    }
    const note = h("p", "kw-keys-note");
    note.textContent = t("keys.note");
    el.append(title, list, note);
  }
}

// -- Panels: overlays above the felt (they never push the board down) -----------------------

class Panels {
  /**
   * @param {Board} board
   * @param {HTMLElement} host  the overlay layer over the table
   */
  constructor(board, host) {
    this.board = board;
    this.host = host;
    /** @type {Map<string, PanelSpec>} */
    this.specs = new Map();
    this.current = "";
    this.headings = 0;
    /** @type {HTMLElement|null} */
    this.returnTo = null;
    this.box = h("div", "kw-panel", { role: "dialog" });
    this.box.hidden = true;
    host.append(this.box);
  }

  /**
   * Add a panel. `spec.button` names the toolbar button that toggles it (it gets
   * aria-expanded); `spec.el` is a persistent element, or `spec.build(el)` fills the shared box.
   * @param {string} name
   * @param {PanelSpec} spec
   */
  register(name, spec) {
    this.specs.set(name, spec);
    if (spec.el) {
      spec.el.hidden = true;
      spec.el.classList.add("kw-panel");
      spec.el.setAttribute("role", "dialog");
      this.host.append(spec.el);
    }
  }

  /** @param {string} name */
  toggle(name) {
    if (this.current === name) this.close(true);
    else this.open(name);
  }

  /** @param {string} name */
  open(name) {
    if (!this.specs.has(name)) return;
    // where the focus goes back to when it closes: where it was, if that was in the widget
    const at = document.activeElement;
    if (!this.current) this.returnTo = at instanceof HTMLElement && this.board.root.contains(at) ? at : null;
    this.current = name;
    this.render();
    const spec = /** @type {PanelSpec} */ (this.specs.get(name));
    const el = spec.el || this.box;
    const target = (spec.focus && spec.focus(el)) || el.querySelector("button, select, input");
    if (target instanceof HTMLElement) setTimeout(() => target.focus({ preventScroll: true }), 0);
  }

  /**
   * Close the open panel; with `restore`, give the focus back to its button or the board.
   * @param {boolean} [restore]
   */
  close(restore) {
    const was = this.current;
    this.current = "";
    this.render();
    if (!restore || !was) return;
    const spec = this.specs.get(was);
    const b = this.board;
    const button = spec && spec.button ? b.buttons[spec.button] : null;
    const wasAt = this.returnTo && this.returnTo.isConnected && this.returnTo.offsetParent ? this.returnTo : null;
    const back = wasAt || (button && button.offsetParent ? button : b.pileEls[b.focusPile]);
    back.focus({ preventScroll: true });
  }

  /**
   * Name the dialog `el`: by its heading (or question) if it has one, else by `spec.label`.
   * @param {HTMLElement} el @param {PanelSpec} spec
   */
  name(el, spec) {
    const head = el.querySelector("h3, .kw-confirm-text");
    el.removeAttribute("aria-labelledby");
    el.removeAttribute("aria-label");
    if (head) {
      head.id = head.id || `${this.board.cid}-panel-${++this.headings}`;
      el.setAttribute("aria-labelledby", head.id);
    } else if (spec.label) el.setAttribute("aria-label", this.board.i18n.t(spec.label));
  }

  /** Show the open panel (built again in the active language), hide the others. */
  render() {
    const b = this.board;
    this.host.hidden = !this.current;
    for (const [name, spec] of this.specs) {
      if (spec.button && b.buttons[spec.button]) {
        b.buttons[spec.button].setAttribute("aria-expanded", String(name === this.current));
      }
      if (spec.el) spec.el.hidden = name !== this.current;
    }
    const spec = this.specs.get(this.current);
    const box = this.box;
    box.replaceChildren();
    box.hidden = !spec || Boolean(spec.el);
    box.dataset.panel = this.current;
    if (spec && spec.el) this.name(spec.el, spec);
    if (!spec || spec.el || !spec.build) return;
    spec.build(box);
    this.name(box, spec);
    if (spec.noClose) return;
    const close = h("button", "kw-btn kw-btn-close", { type: "button" });
    close.textContent = b.i18n.t("button.close.label");
    close.title = b.i18n.t("button.close.tooltip");
    close.addEventListener("click", () => this.close(true));
    box.append(close);
  }
}

// -- LineView: the analysis panel, a solver line stepped through ---------------------------

class LineView {
  /** @param {Board} board */
  constructor(board) {
    this.board = board;
    this.build();
  }

  build() {
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
    this.speedSel = this.board.select("kw-sel-speed", (v) => this.board.send("set_step_pace", { pace: Number(v) }), controls);
    // Focusable: it scrolls, and it keeps the keys (Left/Right/Home/End) when a button disables.
    this.lineList = h("ol", "kw-line-list", { tabindex: "0" });
    this.lineList.addEventListener("click", (ev) => {
      const item = ev.target instanceof Element ? ev.target.closest(".kw-line-item") : null;
      // (a run's head, .kw-line-run, toggles its run itself)
      if (item instanceof HTMLElement) this.stepTo(Number(item.dataset.step));
    });
    const actions = h("div", "kw-line-actions");
    this.playHereBtn = /** @type {HTMLButtonElement} */ (h("button", "kw-btn kw-btn-play-here", { type: "button" }));
    this.playHereBtn.addEventListener("click", () => {
      const l = this.board.view().line;
      if (l) this.board.send("play_from_here", { line: l.id, index: l.k });
    });
    this.backBtn = /** @type {HTMLButtonElement} */ (h("button", "kw-btn kw-btn-back", { type: "button" }));
    this.backBtn.addEventListener("click", () => this.board.send("back_to_game"));
    actions.append(this.playHereBtn, this.backBtn);
    sec.append(head, controls, this.lineList, actions);
    /** The line_view drawn in the list: "id|first|words" (the list is rebuilt only when it changes). */
    this.lineKey = "";
    /** The list and step last shown ("lang|id|...|k"), and the step (said when it changes). */
    this.lineShown = "";
    this.lineShownK = -1;
  }

  /** @returns {LineView|null} */
  lineView() {
    const lv = this.board.model.get("line_view");
    return lv && lv.moves ? lv : null;
  }

  /** @param {number} k */
  stepTo(k) {
    const l = this.board.view().line;
    if (!l) return;
    const index = Math.max(0, Math.min(l.total, k));
    if (index !== l.k) this.board.send("step", { line: l.id, index });
  }

  /** @param {number} d */
  stepBy(d) {
    const l = this.board.view().line;
    if (l) this.stepTo(l.k + d);
  }

  toggleAutoplay() {
    const l = this.board.view().line;
    if (l) this.board.send("autoplay", { line: l.id, on: !l.auto });
  }

  /**
   * Draw the analysis panel: controls for the step shown; the list when the line changed.
   * @param {boolean} full  labels and list too (strings or line_view changed)
   */
  render(full) {
    const v = this.board.view();
    const l = v ? v.line : null;
    const lv = this.lineView();
    const open = Boolean(l && lv && lv.id === l.id);
    const had = this.lineEl.contains(document.activeElement);
    this.lineEl.hidden = !open;
    this.board.root.classList.toggle("kw-analysing", open);
    if (!open || !l || !lv) {
      if (had) this.board.pileEls[this.board.focusPile].focus({ preventScroll: true }); // back to the board
      return;
    }
    const moves = lv.moves.split(" ");
    const key = `${this.board.i18n.lang()}|${lv.id}|${lv.first}|${lv.words.length}|${lv.words[0] || ""}`;
    if (full || key !== this.lineKey) {
      this.lineKey = key;
      this.lineTitle.textContent = this.board.i18n.t(lv.title || "analysis.title");
      for (const [k, b] of Object.entries(this.lineButtons)) {
        if (k === "autoplay") continue;
        b.title = this.board.i18n.t(`analysis.${k}`);
        b.setAttribute("aria-label", b.title);
      }
      this.slider.max = String(l.total);
      this.slider.setAttribute("aria-label", this.board.i18n.t("analysis.title"));
      this.lineList.setAttribute("aria-label", this.board.i18n.t("a11y.line_list"));
      const pace = Number(this.board.model.get("step_pace"));
      /** @type {[string, string][]} */
      const paces = STEP_PACES.map(([k, ms]) => [String(ms), this.board.i18n.t(k)]);
      if (!STEP_PACES.some(([, ms]) => ms === pace)) paces.push([String(pace), this.board.i18n.num(pace)]);
      this.board.fillSelect(this.speedSel, "analysis.speed", paces, String(pace));
      this.playHereBtn.textContent = this.board.i18n.t(lv.play || "analysis.play_from_here.label");
      this.backBtn.textContent = this.board.i18n.t("analysis.back_to_game.label");
      this.backBtn.title = this.board.i18n.t("analysis.back_to_game.tooltip");
      const items = [this.lineItem(0, this.board.i18n.t("analysis.start"), "")];
      // a run of taps is one step (its text from Python) that expands when clicked
      /** @type {Map<number, [number, string]>} */
      const runs = new Map((lv.runs || []).map(([start, n, text]) => [start, [n, text]]));
      /** @type {Set<number>} */
      if (this.openRunsOf !== lv.id) this.openRuns = new Set(); // runs opened on this line
      this.openRunsOf = lv.id;
      /** @type {HTMLElement[]} */
      const nodes = [items[0]]; // the steps with the heads of the runs of taps among them
      let runEnd = -1;
      let runStart = -1;
      moves.forEach((text, i) => {
        const run = runs.get(i);
        if (run) {
          nodes.push(this.runHead(i, run[1]));
          runStart = i;
          runEnd = i + run[0];
        }
        const inWindow = i >= lv.first && i < lv.first + lv.words.length;
        const words = inWindow ? lv.words[i - lv.first] : "";
        const why = inWindow && lv.why ? lv.why[i - lv.first] : "";
        const item = this.lineItem(i + 1, words, text);
        if (why) {
          const w = h("span", "kw-line-why");
          w.textContent = why;
          item.insertBefore(w, item.querySelector(".kw-line-code"));
        }
        if (i < runEnd) {
          item.dataset.run = String(runStart);
          item.dataset.runEnd = String(runEnd);
        }
        items.push(item);
        nodes.push(item);
      });
      this.lineList.replaceChildren(...nodes);
      this.lineItems = items;
      this.board.review.markItems(items, lv);
    }
    // The step shown.
    this.lineStepEl.textContent = l.text;
    this.slider.value = String(l.k);
    this.slider.setAttribute("aria-valuetext", this.lineStepEl.textContent);
    const b = this.lineButtons;
    b.first.disabled = b.previous.disabled = l.k === 0;
    b.next.disabled = b.last.disabled = l.k === l.total;
    const auto = b.autoplay;
    auto.firstElementChild.textContent = l.auto ? "❚❚" : "▶\uFE0E";
    auto.title = this.board.i18n.t(l.auto ? "analysis.pause" : "analysis.autoplay");
    auto.setAttribute("aria-label", auto.title);
    auto.setAttribute("aria-pressed", String(l.auto));
    this.playHereBtn.disabled = !l.playable;
    const active = document.activeElement;
    if (active instanceof HTMLButtonElement && active.disabled && this.lineEl.contains(active)) {
      this.lineList.focus({ preventScroll: true }); // a disabled button would drop the focus
    }
    const playTip = lv.play ? "review.try_from_here.tooltip" : "analysis.play_from_here.tooltip";
    this.playHereBtn.title = this.board.i18n.t(l.playable ? playTip : "reject.line_not_current");
    for (const item of this.lineItems || []) {
      if (item.dataset.run !== undefined) {
        // a run of taps stays folded under its head unless opened or the step is inside it
        const run = Number(item.dataset.run);
        const inside = l.k > run && l.k <= Number(item.dataset.runEnd);
        item.hidden = !(this.openRuns && this.openRuns.has(run)) && !inside;
      }
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
    if (moved && this.lineShown.split("|")[1] !== String(lv.id)) {
      this.board.say(l.opened);
      // opened from the toolbar (its button is now disabled): the keys go to the line's list
      const at = document.activeElement;
      if (!at || at === document.body || this.board.bar.contains(at)) this.lineList.focus({ preventScroll: true });
    } else if (moved && this.lineShownK !== l.k) this.board.say(l.said);
    this.lineShown = `${this.lineKey}|${l.k}`;
    this.lineShownK = l.k;
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
   * The head of a run of taps starting at move `start`: one step that folds the run's moves.
   * @param {number} start
   * @param {string} text  Python's words for the run ("turn the stock until 7♥ (3 taps)")
   */
  runHead(start, text) {
    // a list item holding a button (a list keeps only list items as its children)
    const head = h("li", "kw-line-run", { "data-run-head": String(start) });
    const button = h("button", "kw-line-run-btn", { type: "button", "aria-expanded": String(this.openRuns.has(start)) });
    button.textContent = text;
    head.append(button);
    head.addEventListener("click", () => {
      if (this.openRuns.has(start)) this.openRuns.delete(start);
      else this.openRuns.add(start);
      button.setAttribute("aria-expanded", String(this.openRuns.has(start)));
      this.render(false);
    });
    return head;
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
    num.textContent = k ? this.board.i18n.num(k) : "";
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
}

// -- Board: the table. Draws the view, turns clicks into intents -----------------------------

/** Toolbar buttons: [strings key, class, icon, in the "more" group on narrow widgets]. */
const BUTTONS = [
  ["new_deal", "kw-btn-new", "new", false],
  ["deal_by_number", "kw-btn-number", "number", true],
  ["restart", "kw-btn-restart", "restart", true],
  ["undo", "kw-btn-undo", "undo", false],
  ["redo", "kw-btn-redo", "redo", false],
  ["hint", "kw-btn-hint", "hint", false],
  ["finish", "kw-btn-finish", "finish", false],
  ["solver_line", "kw-btn-line", "line", true],
  ["auto_complete", "kw-btn-auto", "auto", false],
  ["review", "kw-btn-review", "review", true],
  ["statistics", "kw-btn-stats", "stats", true],
  ["rules", "kw-btn-rules", "rules", true],
  ["settings", "kw-btn-settings", "settings", false],
  ["keys", "kw-btn-keys", "keys", false],
  ["more", "kw-btn-more", "more", false],
];

/** Toolbar icons (16 x 16, drawn in the text colour), shown alone when the widget is narrow. */
const ICONS = {
  new: '<path d="M8 2v12M2 8h12"/>',
  number: '<path d="M6 2L4.5 14M11.5 2L10 14M2.5 5.5h11M2 10.5h11"/>',
  restart: '<path d="M3 8a5 5 0 1 0 1.5-3.5"/><path d="M3 2v3h3"/>',
  undo: '<path d="M5 4L2 7l3 3"/><path d="M2 7h8a4 4 0 0 1 0 8H7"/>',
  redo: '<path d="M11 4l3 3-3 3"/><path d="M14 7H6a4 4 0 0 0 0 8h3"/>',
  hint: '<path d="M8 1.5a4.5 4.5 0 0 0-2.5 8.2V12h5V9.7A4.5 4.5 0 0 0 8 1.5z"/><path d="M6 14.5h4"/>',
  finish: '<path d="M3 2v12"/><path d="M3 2.5h9l-2 3 2 3H3"/>',
  line: '<path d="M6 4h8M6 8h8M6 12h8"/><circle cx="2.5" cy="4" r="0.8"/><circle cx="2.5" cy="8" r="0.8"/><circle cx="2.5" cy="12" r="0.8"/>',
  rules: '<path d="M2 3h4.5A1.5 1.5 0 0 1 8 4.5V14a1.5 1.5 0 0 0-1.5-1.5H2zM14 3H9.5A1.5 1.5 0 0 0 8 4.5V14a1.5 1.5 0 0 1 1.5-1.5H14z"/>',
  settings: '<circle cx="8" cy="8" r="2.2"/><path d="M8 1v2.5M8 12.5V15M1 8h2.5M12.5 8H15M3 3l1.8 1.8M11.2 11.2L13 13M3 13l1.8-1.8M11.2 4.8L13 3"/>',
  keys: '<rect x="1" y="4" width="14" height="9" rx="1.5"/><path d="M4 7h1M7 7h2M11 7h1M4 10h8"/>',
  auto: '<path d="M2 4l4 4-4 4M8 4l4 4-4 4"/>',
  stats: '<path d="M2 14h12M4 14V9M8 14V4M12 14V7"/>',
  review: '<circle cx="6.5" cy="6.5" r="4.5"/><path d="M10 10l4.5 4.5M4.5 6.5l1.5 1.5 2.5-3"/>',
  more: '<circle cx="3" cy="8" r="1"/><circle cx="8" cy="8" r="1"/><circle cx="13" cy="8" r="1"/>',
};

class Board {
  /**
   * @param {any} model
   * @param {HTMLElement} el
   */
  constructor(model, el) {
    this.model = model;
    this.el = el;
    this.cid = `kw${++instance}-${Math.random().toString(36).slice(2, 8)}`;
    this.i18n = new I18n(model);
    this.motion = new Motion(this);
    this.drag = new Drag(this);
    this.keys = new Keys(this);
    /** @type {Pick|null} */
    this.pick = null;
    /** @type {string} */
    this.focusPile = "s";
    this.lastSeq = -1;
    this.lastAnnounce = -1;
    this.finishSaidAt = -Infinity;
    /** The win dialog was closed (Escape, Close) on this won game: the board shows. */
    this.winClosed = false;
    this.noticeTimer = 0;
    this.pendingSince = 0;
    this.confirmAction = null;
    this.confirmKey = "";
    /** @type {Object<string, string>|null} */
    this.pileKeys = null;
    /** @type {View|null} */
    this.lastView = null;
    /** The tallest the columns have been in this game (the felt never shrinks under the player). */
    this.tall = { deal: "", d: 0, u: 0 };
    this.build();
    this.lineView = new LineView(this);
    this.stage.before(this.lineView.lineEl);
    this.registerPanels();
    this.extras = new PlayExtras(this);
    this.review = new ReviewPanel(this);
    this.lesson = new LessonPanel(this);
    this.onChange = () => this.render();
    this.onStrings = () => {
      this.renderChrome();
      this.render(true);
    };
    this.onMsg = (/** @type {any} */ msg) => this.onCustom(msg);
    this.onLine = () => this.lineView.render(true);
    /** @type {[string, () => void][]} */
    this.listeners = [
      ["change:view", this.onChange],
      ["change:deck", this.onChange],
      ["change:mirror", this.onChange],
      ["change:back", this.onChange],
      ["change:show_analysis", this.onStrings],
      ["change:strings", this.onStrings],
      ["change:locale", this.onStrings],
      ["change:draw", this.onStrings],
      ["change:pace", this.onStrings],
      ["change:line_view", this.onLine],
      ["change:step_pace", this.onLine],
      ["msg:custom", this.onMsg],
    ];
    for (const [name, fn] of this.listeners) model.on(name, fn);
    this.tick = setInterval(() => this.renderClock(), 1000);
    this.renderChrome();
    this.render(true);
    this.lastAnnounce = this.view().announce ? this.view().announce.n : -1;
  }

  destroy() {
    this.extras.destroy();
    this.review.destroy();
    clearInterval(this.tick);
    clearTimeout(this.noticeTimer);
    this.drag.destroy();
    this.motion.stop();
    for (const [name, fn] of this.listeners) this.model.off(name, fn);
  }

  // -- data ------------------------------------------------------------------------------

  /** @returns {View} */
  view() {
    return this.model.get("view");
  }

  /** @param {string} src @param {number} n @returns {LegalMove[]} */
  movesFrom(src, n) {
    const list = (this.view().legal || {})[src] || [];
    return list.filter((m) => m[0] === n);
  }

  /**
   * The ids of the top `n` face-up cards of pile `src` in view `v`.
   * @param {View} v @param {string} src @param {number} n
   * @returns {string[]}
   */
  topCards(v, src, n) {
    let cards = [];
    if (src === "w") cards = v.waste;
    else if (src[0] === "f") {
      const top = v.found[FOUNDATIONS.indexOf(src)];
      cards = top === null ? [] : [top];
    } else if (src[0] === "t") cards = v.cols[COLUMNS.indexOf(src)][1];
    return cards.slice(Math.max(0, cards.length - n)).map(String);
  }

  /**
   * Send an intent, stamped with the view it was made on (the one on the screen unless
   * `seq` says otherwise). Every click is sent at once, however many are on their way:
   * Python applies a move made on an older view when it still means the same move.
   * @param {string} kind
   * @param {Object<string, any>} [fields]
   * @param {number} [seq]
   */
  send(kind, fields, seq) {
    this.pendingSince = performance.now();
    const stamp = seq === undefined ? this.view().seq : seq;
    this.model.send(Object.assign({ kind, seq: stamp, cid: this.cid }, fields || {}));
  }

  /** @param {string} text */
  sendMove(text) {
    this.pick = null;
    this.send("move", { move: text });
  }

  /** @param {string} text  said by screen readers (the live region); said again if repeated */
  say(text) {
    this.live.textContent = this.live.textContent === text ? `${text}\u00a0` : text;
  }

  /**
   * Say the view's latest action. While Finish plays, every move is not said: the progress,
   * at most every FINISH_SAY_MS; the last move and the win are said in full.
   * @param {View} v
   */
  announce(v) {
    if (v.status !== "finishing") {
      this.say(/** @type {{text: string}} */ (v.announce).text);
      return;
    }
    const now = performance.now();
    if (now - this.finishSaidAt < FINISH_SAY_MS) return;
    this.finishSaidAt = now;
    if (v.texts.finishing) this.say(v.texts.finishing);
  }

  // -- building the DOM ------------------------------------------------------------------

  build() {
    const root = h("div", "kw-root", { "data-lm-suppress-shortcuts": "true" });
    this.root = root;
    this.bar = h("div", "kw-toolbar", { role: "toolbar" });
    /** @type {Object<string, HTMLButtonElement>} */
    this.buttons = {};
    /** @type {Object<string, () => void>} */
    const actions = {
      new_deal: () => this.confirmNewDeal(),
      deal_by_number: () => this.panels.toggle("deal"),
      restart: () => this.confirmRestart(),
      undo: () => this.send("undo"),
      redo: () => this.send("redo"),
      hint: () => this.send("hint"),
      finish: () => this.finishOrStop(),
      solver_line: () => this.send("open_line"),
      auto_complete: () => this.send("auto_complete"),
      review: () => this.send("review"),
      statistics: () => this.extras.openStats(),
      rules: () => this.panels.toggle("rules"),
      settings: () => this.panels.toggle("settings"),
      keys: () => this.panels.toggle("keys"),
      more: () => {
        const open = this.root.classList.toggle("kw-more-open");
        this.buttons.more.setAttribute("aria-expanded", String(open));
      },
    };
    /** @type {Object<string, string>} */
    const shortcuts = { new_deal: "N", undo: "U Control+Z", redo: "Y Control+Shift+Z", hint: "H", finish: "F", keys: "?" };
    for (const [key, cls, icon, more] of BUTTONS) {
      const b = /** @type {HTMLButtonElement} */ (h("button", `kw-btn ${cls}${more ? " kw-more" : ""}`, { type: "button" }));
      if (shortcuts[key]) b.setAttribute("aria-keyshortcuts", shortcuts[key]);
      const mirrors = icon === "undo" || icon === "redo" ? " kw-mirrors" : "";
      b.innerHTML =
        `<svg class="kw-icon${mirrors}" viewBox="0 0 16 16" aria-hidden="true" fill="none" stroke="currentColor"` +
        ` stroke-width="1.6" stroke-linecap="round" stroke-linejoin="round">${ICONS[icon]}</svg><span class="kw-btn-text"></span>`;
      b.addEventListener("click", (ev) => {
        ev.stopPropagation();
        actions[key]();
      });
      this.buttons[key] = b;
      this.bar.append(b);
    }
    this.drawSel = this.select("kw-sel-draw kw-more", (v) => this.send("set_draw", { draw: Number(v) }));
    this.langSel = this.select("kw-sel-lang kw-more", (v) => this.send("set_locale", { locale: v }));
    root.append(this.bar);

    const info = h("div", "kw-info");
    this.dealEl = h("span", "kw-deal");
    this.movesEl = h("span", "kw-moves");
    this.timeEl = h("span", "kw-time");
    this.statusEl = h("span", "kw-status", { role: "status" });
    this.scoreEl = h("span", "kw-score");
    info.append(this.dealEl, this.movesEl, this.timeEl, this.scoreEl, this.statusEl);
    root.append(info);

    // One line kept for the hint and the notices: showing one never moves the board.
    const msgs = h("div", "kw-msgs");
    this.noticeEl = h("div", "kw-notice");
    this.noticeEl.hidden = true;
    this.hintEl = h("div", "kw-hint-text");
    this.hintEl.hidden = true;
    msgs.append(this.noticeEl, this.hintEl);
    root.append(msgs);

    this.stage = h("div", "kw-stage");
    this.table = h("div", "kw-table", { role: "group" });
    this.top = h("div", "kw-top");
    this.tableau = h("div", "kw-tableau");
    this.table.append(this.top, this.tableau);
    this.overlay = h("div", "kw-overlay");
    this.overlay.hidden = true;
    this.stage.append(this.table, this.overlay);
    root.append(this.stage);

    this.winEl = h("div", "kw-win", { role: "dialog", "aria-modal": "true" });
    this.winEl.setAttribute("aria-labelledby", `${this.cid}-win-title`);
    this.winEl.setAttribute("aria-describedby", `${this.cid}-win-msg`);
    this.winEl.addEventListener("keydown", (ev) => this.trapFocus(ev, this.winEl));
    this.winEl.hidden = true;
    this.table.append(this.winEl);

    this.live = h("div", "kw-live", { "aria-live": "polite", "aria-atomic": "true" });
    root.append(this.live);

    /** @type {Object<string, HTMLElement>} */
    this.pileEls = {};
    for (const id of PILES) {
      const p = h("div", `kw-pile kw-pile-${id[0]}`, { "data-pile": id, tabindex: "-1", role: "button" });
      this.pileEls[id] = p;
      if (id[0] === "t") this.tableau.append(p);
      else this.top.append(p);
      if (id === "w") this.top.append(h("div", "kw-gap"));
    }
    this.pileEls[this.focusPile].tabIndex = 0;

    const d = this.drag;
    root.addEventListener("pointerdown", (ev) => d.down(ev));
    root.addEventListener("pointermove", (ev) => d.move(ev));
    root.addEventListener("pointerup", (ev) => d.up(ev));
    root.addEventListener("pointercancel", () => d.cancel());
    root.addEventListener("dblclick", (ev) => this.onDoubleClick(ev));
    root.addEventListener("keydown", (ev) => this.keys.onKey(ev));
    // keypress/keyup of the same keys stay here too (nothing in the notebook acts on them).
    root.addEventListener("keypress", (ev) => ev.stopPropagation());
    root.addEventListener("keyup", (ev) => ev.stopPropagation());
    root.addEventListener("focusin", (ev) => {
      const pile = ev.target instanceof Element ? ev.target.closest(".kw-pile") : null;
      if (pile && pile instanceof HTMLElement && pile.dataset.pile) {
        this.focusPile = pile.dataset.pile;
        for (const id of PILES) this.pileEls[id].tabIndex = id === this.focusPile ? 0 : -1;
      }
    });
    this.el.append(root);
  }

  /** The panels of the widget; another one is a `this.panels.register(...)` away. */
  registerPanels() {
    const panels = new Panels(this, this.overlay);
    this.panels = panels;
    panels.register("rules", { button: "rules", build: (el) => this.buildRules(el) });
    panels.register("deal", {
      button: "deal_by_number",
      build: (el) => this.buildDealForm(el),
      focus: (el) => el.querySelector("input"),
      label: "button.deal_by_number.label",
    });
    panels.register("confirm", { build: (el) => this.buildConfirm(el), noClose: true, focus: (el) => el.querySelector(".kw-btn-ok") });
    panels.register("keys", { button: "keys", build: (el) => this.keys.buildHelp(el) });
    this.settingsEl = h("div", "kw-settings");
    this.mirrorSel = this.select("kw-sel-mirror", (v) => this.send("set_mirror", { mirror: v }), this.settingsEl);
    this.paceSel = this.select("kw-sel-pace", (v) => this.send("set_pace", { pace: Number(v) }), this.settingsEl);
    this.backSel = this.select("kw-sel-back", (v) => this.send("set_back", { back: v }), this.settingsEl);
    const label = h("label", "kw-field kw-check-analysis");
    this.analysisBox = /** @type {HTMLInputElement} */ (h("input", "", { type: "checkbox" }));
    this.analysisBox.addEventListener("change", () => this.send("set_show_analysis", { on: this.analysisBox.checked }));
    this.analysisLabel = h("span", "kw-field-label");
    label.append(this.analysisBox, this.analysisLabel);
    this.settingsEl.append(label);
    const close = h("button", "kw-btn kw-btn-close", { type: "button" });
    close.addEventListener("click", () => panels.close(true));
    this.settingsClose = close;
    this.settingsEl.append(close);
    panels.register("settings", { button: "settings", el: this.settingsEl, label: "settings.title" });
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
    span.textContent = this.i18n.t(labelKey);
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
    const t = (/** @type {string} */ k) => this.i18n.t(k);
    const root = this.root;
    const lang = this.i18n.lang();
    root.setAttribute("lang", lang);
    root.setAttribute("dir", this.i18n.rtl() ? "rtl" : "ltr");
    this.table.setAttribute("aria-label", t("a11y.board"));
    for (const [key, b] of Object.entries(this.buttons)) {
      const text = /** @type {HTMLElement} */ (b.querySelector(".kw-btn-text"));
      if (key === "settings") {
        text.textContent = t("settings.title");
        b.title = t("settings.title");
      } else {
        text.textContent = t(`button.${key}.label`);
        b.title = t(`button.${key}.tooltip`);
      }
      b.setAttribute("aria-label", key === "keys" ? b.title : text.textContent || "");
    }
    this.fillSelect(
      this.drawSel,
      "option.draw.label",
      [
        ["1", t("option.draw.one")],
        ["3", t("option.draw.three")],
      ],
      String(this.model.get("draw")),
    );
    this.drawSel.title = t("option.draw.tooltip");
    /** @type {[string, string][]} */
    const langs = (this.i18n.strs().available || []).map((/** @type {any} */ l) => [l.code, l.name]);
    this.fillSelect(this.langSel, "language.label", langs, lang);
    this.langSel.title = t("language.tooltip");
    for (const o of Array.from(this.langSel.options)) o.lang = o.value;
    this.fillSelect(
      this.mirrorSel,
      "settings.mirror.label",
      ["auto", "on", "off"].map((v) => [v, t(`settings.mirror.${v}`)]),
      this.model.get("mirror"),
    );
    const pace = Number(this.model.get("pace"));
    /** @type {[string, string][]} */
    const paces = PACES.map(([k, v]) => [String(v), t(String(k))]);
    if (!PACES.some(([, v]) => v === pace)) paces.push([String(pace), this.i18n.num(pace)]);
    this.fillSelect(this.paceSel, "settings.animation.label", paces, String(pace));
    this.fillSelect(
      this.backSel,
      "settings.back.label",
      BACKS.map((v) => [v, t(`settings.back.${v}`)]),
      this.model.get("back") || "lattice",
    );
    this.analysisBox.checked = this.model.get("show_analysis") !== false;
    this.analysisLabel.textContent = t("settings.analysis.label");
    this.settingsEl.setAttribute("aria-label", t("settings.title")); // (its dialog's name)
    this.settingsClose.textContent = t("button.close.label");
    this.settingsClose.title = t("button.close.tooltip");
    this.extras.renderChrome();
    this.review.renderChrome();
    this.lesson.renderChrome();
    if (this.panels.current && this.panels.current !== "settings") this.panels.render();
    this.lineView.render(true);
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
    // A pick survives an update when its cards are still on top of the same pile.
    if (changed && this.pick && this.lastView) {
      const was = this.topCards(this.lastView, this.pick.src, this.pick.n).join(",");
      if (this.topCards(v, this.pick.src, this.pick.n).join(",") !== was || v.status !== "playing") this.pick = null;
    }
    if (changed) this.drag.land();
    // Only the piles whose contents (or language) changed are drawn again.
    const lang = this.i18n.lang();
    const back = this.model.get("back") || "lattice";
    /** @type {Object<string, string>} */
    const keys = {
      s: `${lang}|${v.stock}|${(v.legal.s || []).length}`,
      w: `${lang}|${v.wn}|${v.waste.join(",")}|${this.mirrorBoard()}`,
    };
    FOUNDATIONS.forEach((id, i) => {
      keys[id] = `${lang}|${v.found[i]}`;
    });
    COLUMNS.forEach((id, i) => {
      keys[id] = `${lang}|${v.cols[i][0]}|${v.cols[i][1].join(",")}`;
    });
    // a pile's name is part of its key: a name in another language is drawn again
    for (const id of PILES) keys[id] += `|${v.texts.piles[id]}`;
    if (force || !this.pileKeys) this.pileKeys = {};
    const dirty = PILES.filter((id) => this.pileKeys[id] !== keys[id]);
    // Cards glide only within a game (not into a new deal or a restart).
    const sameGame = this.lastView && this.lastView.deal === v.deal && v.moves > this.lastView.moves;
    const before = changed && !force && sameGame ? this.motion.rects(dirty) : null;
    if (!sameGame && changed) this.motion.from.clear();
    const wasWon = this.lastView && this.lastView.status === "won";
    this.lastSeq = v.seq;
    this.lastView = v;
    const mirrored = this.mirrorBoard();
    this.table.setAttribute("dir", mirrored ? "rtl" : "ltr");
    this.root.dataset.seq = String(v.seq);
    this.root.dataset.status = v.status;
    this.root.dataset.back = back;
    this.root.classList.toggle("kw-finishing", v.status === "finishing");
    for (const id of dirty) {
      if (id === "s") this.renderStock(v);
      else if (id === "w") this.renderWaste(v);
      else if (id[0] === "f") {
        const i = FOUNDATIONS.indexOf(id);
        this.renderFoundation(id, i, v.found[i], v.texts.piles[id]);
      } else this.renderColumn(id, v.cols[COLUMNS.indexOf(id)], v.texts.piles[id]);
      this.pileKeys[id] = keys[id];
    }
    this.keepHeight(v);
    this.drag.relift();
    this.renderMarks();
    this.renderInfo(v);
    this.renderHint(v);
    this.renderWin(v, changed && !wasWon && v.status === "won" && !force);
    this.review.render(v);
    this.lesson.render(v);
    this.lineView.render(false);
    if (v.announce && v.announce.n !== this.lastAnnounce) {
      this.lastAnnounce = v.announce.n;
      this.announce(v);
    }
    if (before) this.motion.slide(before, v, dirty);
    // For benchmarks/widget_latency.py: how long this render took, and the round trip.
    const done = performance.now();
    this.root.dataset.renderMs = (done - started).toFixed(2);
    if (this.pendingSince) {
      this.root.dataset.latency = (done - this.pendingSince).toFixed(2);
      this.pendingSince = 0;
    }
  }

  /**
   * The tableau keeps the height of its tallest column so far in this game: emptying a column
   * never makes the felt (and the notebook under it) jump.
   * @param {View} v
   */
  keepHeight(v) {
    const game = `${v.deal}|${v.draw}`;
    const tall = this.tall;
    if (tall.deal !== game || v.moves === 0) Object.assign(tall, { deal: game, d: 0, u: 0 });
    for (const [down, up] of v.cols) {
      if (down * 0.085 + Math.max(0, up.length - 1) * 0.34 > tall.d * 0.085 + tall.u * 0.34) {
        tall.d = down;
        tall.u = Math.max(0, up.length - 1);
      }
    }
    this.tableau.style.setProperty("--kw-tall-d", String(tall.d));
    this.tableau.style.setProperty("--kw-tall-u", String(tall.u));
  }

  mirrorBoard() {
    const m = this.model.get("mirror");
    if (m === "on") return true;
    if (m === "off") return false;
    return this.i18n.rtl();
  }

  /**
   * A card element.
   * @param {number|null} card  card id, or null for a face-down card
   * @param {string} pile
   * @param {number} index  position in the pile (0 = bottom)
   * @param {boolean} [right]  an index in the top-right corner too
   */
  cardEl(card, pile, index, right) {
    const c = h("div", "kw-card", { "data-pile": pile, "data-index": String(index) });
    if (card === null) {
      c.classList.add("kw-back");
      c.setAttribute("role", "img");
      c.setAttribute("aria-label", this.i18n.t("card.face_down"));
      return c;
    }
    const deck = this.model.get("deck") || [];
    const [rank, , red] = deck[card] || ["?", "?", 0];
    c.dataset.card = String(card);
    c.setAttribute("aria-label", this.deckLabel(card));
    c.setAttribute("role", "img");
    if (red) c.classList.add("kw-red");
    // Card faces never mirror: the face is always left-to-right (the card itself follows the
    // board, so that its logical position is right in a mirrored board).
    c.innerHTML = CardArt.face(card, String(rank), false, right);
    return c;
  }

  /** @param {View} v */
  renderStock(v) {
    const p = this.pileEls.s;
    p.replaceChildren();
    p.classList.toggle("kw-empty", v.stock === 0);
    p.classList.toggle("kw-recycle", v.stock === 0 && (v.legal.s || []).length > 0);
    if (v.stock > 0) {
      p.append(this.cardEl(null, "s", 0));
      const badge = h("span", "kw-count", { "aria-hidden": "true" });
      badge.textContent = this.i18n.num(v.stock);
      p.append(badge);
    }
    this.nameP(p, v.texts.piles.s);
  }

  /** @param {View} v */
  renderWaste(v) {
    const p = this.pileEls.w;
    p.replaceChildren();
    p.classList.toggle("kw-empty", v.wn === 0);
    const first = v.wn - v.waste.length;
    const mirrored = this.mirrorBoard();
    v.waste.forEach((card, i) => {
      const c = this.cardEl(card, "w", first + i, mirrored && i < v.waste.length - 1);
      c.style.setProperty("--kw-fan", String(i));
      c.classList.add("kw-fan");
      if (i < v.waste.length - 1) c.classList.add("kw-under");
      p.append(c);
    });
    this.nameP(p, v.texts.piles.w);
  }

  /** @param {number} card */
  deckLabel(card) {
    const names = this.i18n.strs().cards || [];
    return names[card] || "";
  }

  /**
   * @param {string} id
   * @param {number} suit
   * @param {number|null} top
   * @param {string} name  its accessible name, from Python (`view.texts.piles`)
   */
  renderFoundation(id, suit, top, name) {
    const p = this.pileEls[id];
    p.replaceChildren();
    p.classList.toggle("kw-empty", top === null);
    const mark = h("span", "kw-mark", { "aria-hidden": "true" });
    mark.innerHTML = `<svg viewBox="0 0 100 100" fill="currentColor">${SUIT_SHAPES[SUITS[suit]]}</svg>`;
    p.append(mark);
    if (top !== null) p.append(this.cardEl(top, id, 0));
    this.nameP(p, name);
  }

  /**
   * @param {string} id
   * @param {[number, number[]]} col  [face-down count, face-up cards]
   * @param {string} name  its accessible name, from Python (`view.texts.piles`)
   */
  renderColumn(id, col, name) {
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
    this.nameP(p, name);
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
    this.nameMarks();
  }

  /**
   * The accessible name of a pile: what is on it (`what`), then its marks (see nameMarks).
   * @param {HTMLElement} p @param {string} what
   */
  nameP(p, what) {
    p.dataset.name = what;
    p.setAttribute("aria-label", what);
  }

  /** The marks a sighted player sees on a pile, said in its name: picked, target, hint. */
  nameMarks() {
    /** @type {[string, string][]} [class on the pile or a card in it, text key] */
    const marks = [
      ["kw-picked", "a11y.mark.picked"],
      ["kw-target", "a11y.mark.target"],
      ["kw-hint-src", "a11y.mark.hint_from"],
      ["kw-hint-dst", "a11y.mark.hint_to"],
      ["kw-next-src", "a11y.mark.next_from"],
      ["kw-next-dst", "a11y.mark.next_to"],
    ];
    for (const id of PILES) {
      const p = this.pileEls[id];
      const said = marks.filter(([cls]) => p.classList.contains(cls) || p.querySelector(`.${cls}`));
      const name = [p.dataset.name || "", ...said.map(([, key]) => this.i18n.t(key))].join("; ");
      if (p.getAttribute("aria-label") !== name) p.setAttribute("aria-label", name);
    }
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
    const text = v.texts.hint || "";
    this.hintEl.hidden = !text;
    if (text && this.hintEl.textContent !== text) {
      this.hintEl.textContent = text;
      this.hintEl.title = text;
      this.noticeEl.hidden = true; // the hint answers the notice "the solver is still looking"
      this.say(text);
    }
    if (!text) this.hintEl.textContent = "";
  }

  /** @param {View} v */
  renderInfo(v) {
    const t = (/** @type {string} */ k) => this.i18n.t(k);
    this.dealEl.textContent = v.texts.deal || "";
    this.movesEl.textContent = `${t("counter.label.moves")}: ${this.i18n.num(v.moves)}`;
    this.renderClock();
    this.extras.renderInfo(v);
    let key = "";
    const show = this.model.get("show_analysis") !== false;
    if (v.status === "won") key = "status.won";
    else if (v.status === "finishing") key = "status.finishing";
    else if (v.analysis && show) {
      /** @type {Object<string, string>} */
      const keys = { solving: "status.solving", winnable: "status.winnable", unwinnable: "status.unwinnable", unknown: "status.unknown" };
      key = keys[v.analysis] || "";
      if (v.analysis === "unwinnable" && v.moves === 0) key = "status.unwinnable_deal";
    }
    this.statusEl.textContent = key ? t(key) : "";
    this.statusEl.dataset.analysis = v.analysis || v.status;
    this.statusEl.hidden = !key;
    const b = this.buttons;
    b.undo.disabled = !v.undo;
    b.redo.disabled = !v.redo;
    const playing = v.status === "playing";
    b.hint.disabled = !playing;
    b.restart.disabled = v.status === "finishing";
    b.solver_line.disabled = !v.lines || v.status === "finishing" || v.status === "analysis";
    const fin = b.finish;
    const finText = /** @type {HTMLElement} */ (fin.querySelector(".kw-btn-text"));
    if (v.status === "finishing") {
      finText.textContent = t("button.stop.label");
      fin.title = t("button.stop.tooltip");
      fin.setAttribute("aria-disabled", "false");
      fin.disabled = false;
    } else {
      finText.textContent = t("button.finish.label");
      fin.disabled = !playing;
      fin.setAttribute("aria-disabled", v.finish ? "true" : "false");
      fin.title = v.finish ? t(v.finish) : t("button.finish.tooltip");
    }
    fin.setAttribute("aria-label", finText.textContent || "");
  }

  renderClock() {
    const v = this.view();
    if (!v || !v.clock) return;
    let ms = v.clock.ms;
    if (v.clock.run) {
      const skew = Date.now() - v.clock.at;
      ms += skew >= 0 && skew < 864e5 ? skew : 0;
    }
    this.timeEl.textContent = `${this.i18n.t("counter.label.time")}: `;
    const t = h("span", "kw-clock", { dir: "ltr" });
    t.textContent = this.i18n.duration(ms);
    this.timeEl.append(t);
  }

  /**
   * @param {View} v
   * @param {boolean} justWon  the game was won in this update: the cards cascade
   */
  renderWin(v, justWon) {
    if (v.status !== "won") this.winClosed = false;
    const won = v.status === "won" && !this.winClosed;
    const wasShown = !this.winEl.hidden;
    const hadFocus = this.winEl.contains(document.activeElement);
    this.winEl.hidden = !won;
    if (!won) {
      this.motion.stop();
      if (hadFocus) this.pileEls[this.focusPile].focus({ preventScroll: true });
      return;
    }
    this.winEl.replaceChildren();
    const box = h("div", "kw-win-box");
    const title = h("h2", "kw-win-title", { id: `${this.cid}-win-title` });
    title.textContent = this.i18n.t("win.title");
    const msg = h("p", "kw-win-msg", { id: `${this.cid}-win-msg` });
    msg.textContent = v.texts.win || "";
    const again = h("button", "kw-btn kw-btn-again", { type: "button" });
    again.textContent = this.i18n.t("button.new_deal.label");
    again.addEventListener("click", () => this.send("new_deal"));
    const close = h("button", "kw-btn kw-btn-close", { type: "button" });
    close.textContent = this.i18n.t("button.close.label");
    close.title = this.i18n.t("button.close.tooltip");
    close.addEventListener("click", () => this.closeWin());
    box.append(title, msg, again, close);
    this.winEl.append(box);
    // A modal dialog: it takes the focus when the game is won here (from the widget, not from
    // another cell being edited), and keeps it when drawn again.
    const active = document.activeElement;
    const ours = !active || active === document.body || this.root.contains(active);
    if ((justWon && !wasShown && ours) || hadFocus) again.focus({ preventScroll: true });
    if (justWon) this.motion.cascade();
  }

  /** Close the win dialog (the won board stays, New deal is in the toolbar); focus the board. */
  closeWin() {
    this.winClosed = true;
    this.renderWin(this.view(), false);
  }

  /**
   * Tab and Shift+Tab stay inside a modal dialog.
   * @param {KeyboardEvent} ev @param {HTMLElement} dialog
   */
  trapFocus(ev, dialog) {
    if (ev.key !== "Tab") return;
    const stops = Array.from(dialog.querySelectorAll("button:not(:disabled)"));
    if (!stops.length) return;
    const first = /** @type {HTMLElement} */ (stops[0]);
    const last = /** @type {HTMLElement} */ (stops[stops.length - 1]);
    const at = document.activeElement;
    if (ev.shiftKey ? at === first || !dialog.contains(at) : at === last) {
      ev.preventDefault();
      (ev.shiftKey ? last : first).focus();
    }
  }

  // -- messages --------------------------------------------------------------------------

  /** @param {any} msg */
  onCustom(msg) {
    if (!msg || msg.kind !== "notice") return;
    if (msg.cid && msg.cid !== this.cid) return; // another view's request
    if (msg.key && msg.key.startsWith("reject.")) this.drag.clearLanding();
    this.showNotice(msg.text, msg.key);
  }

  /**
   * @param {string} text
   * @param {string} key
   */
  showNotice(text, key) {
    this.noticeEl.hidden = false;
    this.noticeEl.dataset.key = key;
    this.noticeEl.textContent = text;
    this.noticeEl.title = text;
    this.say(text);
    clearTimeout(this.noticeTimer);
    this.noticeTimer = setTimeout(() => {
      this.noticeEl.hidden = true;
    }, 5000);
  }

  // -- panels: rules, deal number, confirmation -----------------------------------------

  /** @param {HTMLElement} p */
  buildRules(p) {
    const rules = this.i18n.strs().rules || { title: "", sections: [] };
    const title = h("h3", "kw-rules-title kw-panel-title");
    title.textContent = rules.title || this.i18n.t("button.rules.label");
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
  }

  /** @param {HTMLElement} p */
  buildDealForm(p) {
    const form = h("form", "kw-deal-form");
    const label = h("label", "kw-field");
    const span = h("span", "kw-field-label");
    span.textContent = this.i18n.t("deal_number.label");
    const input = /** @type {HTMLInputElement} */ (h("input", "kw-input", { inputmode: "numeric", dir: "ltr", autocomplete: "off", enterkeyhint: "go" }));
    label.append(span, input);
    const hint = h("span", "kw-field-hint");
    hint.textContent = this.i18n.t("deal_number.hint");
    const go = h("button", "kw-btn kw-btn-deal", { type: "submit" });
    go.textContent = this.i18n.t("deal_number.submit");
    form.addEventListener("submit", (ev) => {
      ev.preventDefault();
      const deal = input.value.trim();
      this.panels.close(true);
      this.send("new_deal", { deal });
    });
    form.append(label, go, hint);
    p.append(form);
  }

  /** @param {HTMLElement} p */
  buildConfirm(p) {
    const q = h("span", "kw-confirm-text");
    q.textContent = this.i18n.t(this.confirmKey || "dialog.confirm_new_deal");
    const ok = h("button", "kw-btn kw-btn-ok", { type: "button" });
    ok.textContent = this.i18n.t("dialog.ok");
    ok.addEventListener("click", () => {
      const fn = this.confirmAction;
      this.panels.close(true);
      if (fn) fn();
    });
    const cancel = h("button", "kw-btn kw-btn-cancel", { type: "button" });
    cancel.textContent = this.i18n.t("dialog.cancel");
    cancel.addEventListener("click", () => this.panels.close(true));
    p.append(q, ok, cancel);
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
    this.panels.open("confirm");
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
    if (this.pick) this.say(this.pickSaid(this.pick));
  }

  /** @param {Pick} pick */
  pickSaid(pick) {
    const els = this.runEls(pick.src, pick.n);
    const first = els[0];
    return first ? this.i18n.selected(Number(/** @type {HTMLElement} */ (first).dataset.card)) : "";
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
}

// -- PlayExtras: scoring, statistics and one-click moves -------------------------------------
// Python decides everything here (klondike_widget.play): the score, the one-click target of
// each card (`view.quick`), whether auto-complete is offered, and the statistics rows
// (`stats_view`). This class only draws them and sends intents. Its toolbar buttons are
// entries of `BUTTONS` (statistics, auto_complete); its panel is registered as "stats".

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
    // The setting controls go in the settings panel, before its Close button.
    this.scoringSel = b.select("kw-sel-scoring", (v) => b.send("set_scoring", { scoring: v }), b.settingsEl);
    b.settingsClose.before(/** @type {HTMLElement} */ (this.scoringSel.parentElement));
    /** @type {Object<string, HTMLInputElement>} */
    this.checks = {};
    for (const name of OPTIONS) {
      const label = h("label", `kw-field kw-check kw-opt-${name}`);
      const box = /** @type {HTMLInputElement} */ (h("input", "kw-checkbox", { type: "checkbox" }));
      box.addEventListener("change", () => b.send("set_option", { name, on: box.checked }));
      const span = h("span", "kw-field-label");
      label.append(box, span);
      b.settingsClose.before(label);
      this.checks[name] = box;
    }
    b.panels.register("stats", {
      button: "statistics",
      build: (el) => this.buildStats(el),
      noClose: true, // its Close button sits with Reset, built by buildStats
      focus: (el) => el.querySelector(".kw-btn-ok, .kw-btn-close"),
    });
    this.onStats = () => {
      if (b.panels.current === "stats") b.panels.render();
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
    const t = (/** @type {string} */ k) => b.i18n.t(k);
    b.fillSelect(
      this.scoringSel,
      "settings.scoring.label",
      ["standard", "vegas", "none"].map((v) => [v, t(`settings.scoring.${v}`)]),
      b.model.get("scoring"),
    );
    for (const name of OPTIONS) {
      const box = this.checks[name];
      box.checked = Boolean(b.model.get(name));
      /** @type {HTMLElement} */ (box.nextElementSibling).textContent = t(`settings.${name}.label`);
    }
  }

  /** @param {View} v */
  renderInfo(v) {
    const b = this.board;
    const s = v.score;
    b.scoreEl.hidden = !s;
    b.scoreEl.textContent = "";
    if (s) {
      b.scoreEl.append(`${b.i18n.t("counter.label.score")}: `, this.number(s.value));
      if (s.total !== null && s.total !== undefined) {
        b.scoreEl.append(` · ${b.i18n.t("counter.label.vegas_total")}: `, this.number(s.total));
      }
      b.scoreEl.dataset.mode = s.mode;
    }
    const auto = b.buttons.auto_complete;
    auto.hidden = !v.auto_complete;
    auto.disabled = !v.auto_complete || v.status !== "playing";
  }

  /** @param {number} n */
  number(n) {
    return this.board.i18n.numEl(n, "kw-score-value");
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
    if (b.panels.current !== "stats") b.send("open_stats"); // re-read: another kernel may have written
    b.panels.toggle("stats");
  }

  /** @param {number|null} value @param {string} kind */
  format(value, kind) {
    const i18n = this.board.i18n;
    if (value === null || value === undefined) return "—";
    if (kind === "time") return i18n.duration(value * 1000);
    if (kind === "pct") {
      const meta = i18n.strs().meta || {};
      const opts = { style: "percent", maximumFractionDigits: 1 };
      if (meta.numbering) Object.assign(opts, { numberingSystem: meta.numbering });
      try {
        return new Intl.NumberFormat(i18n.lang(), /** @type {any} */ (opts)).format(value);
      } catch (e) {
        return `${Math.round(value * 100)}%`;
      }
    }
    return i18n.num(value);
  }

  /**
   * The statistics panel: one column per draw mode, one row per figure.
   * @param {HTMLElement} p  the panel box (emptied by Panels before each build)
   */
  buildStats(p) {
    const b = this.board;
    const t = (/** @type {string} */ k) => b.i18n.t(k);
    const close = h("button", "kw-btn kw-btn-close", { type: "button" });
    close.textContent = t("button.close.label");
    close.title = t("button.close.tooltip");
    close.addEventListener("click", () => b.panels.close(true));
    const sv = b.model.get("stats_view") || {};
    const title = h("h3", "kw-stats-title");
    title.textContent = t("stats.title");
    p.append(title);
    if (sv.off) {
      const off = h("p", "kw-stats-off");
      off.textContent = t("stats.off");
      p.append(off, close);
      return;
    }
    /** @type {any[]} */
    const rows = sv.rows || [];
    const table = h("table", "kw-stats-table");
    const head = h("tr");
    const corner = h("th", "", { scope: "col" });
    corner.textContent = t("stats.mode");
    head.append(corner);
    for (const r of rows) {
      const th = h("th", "", { scope: "col", "data-draw": String(r.draw) });
      th.textContent = t(r.draw === 3 ? "option.draw.three" : "option.draw.one");
      head.append(th);
    }
    const thead = h("thead");
    thead.append(head);
    const tbody = h("tbody");
    for (const [key, field, kind] of STAT_ROWS) {
      const tr = h("tr", `kw-stats-${field}`);
      const th = h("th", "", { scope: "row" });
      th.textContent = t(key);
      tr.append(th);
      for (const r of rows) {
        const td = h("td", "", { "data-field": field, "data-draw": String(r.draw) });
        const number = typeof r[field] === "number" && kind === "n";
        const value = number ? b.i18n.numEl(r[field]) : h("bdi"); // a minus or a clock stays in place
        if (!number) value.textContent = this.format(r[field], kind);
        td.append(value);
        tr.append(td);
      }
      tbody.append(tr);
    }
    table.append(thead, tbody);
    p.append(table);
    const note = h("p", "kw-stats-note");
    const played = rows.reduce((n, r) => n + (r.played || 0), 0);
    note.textContent = played ? t("stats.note") : t("stats.empty");
    p.append(note);
    for (const text of sv.warnings || []) {
      const warn = h("p", "kw-stats-warning", { role: "alert" });
      warn.textContent = text;
      p.append(warn);
    }
    const actions = h("div", "kw-stats-actions");
    if (this.confirmReset) {
      const q = h("span", "kw-confirm-text");
      q.textContent = t("dialog.confirm_reset_stats");
      const ok = h("button", "kw-btn kw-btn-ok", { type: "button" });
      ok.textContent = t("dialog.ok");
      ok.addEventListener("click", () => {
        this.confirmReset = false;
        b.send("reset_stats");
        b.panels.render();
      });
      const cancel = h("button", "kw-btn kw-btn-cancel", { type: "button" });
      cancel.textContent = t("dialog.cancel");
      cancel.addEventListener("click", () => {
        this.confirmReset = false;
        b.panels.render();
      });
      actions.append(q, ok, cancel);
      setTimeout(() => ok.focus({ preventScroll: true }), 0);
    } else {
      const reset = h("button", "kw-btn kw-btn-reset-stats", { type: "button" });
      reset.textContent = t("stats.reset.label");
      reset.title = t("stats.reset.tooltip");
      reset.disabled = !played;
      reset.addEventListener("click", () => {
        this.confirmReset = true;
        b.panels.render();
      });
      actions.append(reset, close);
    }
    p.append(actions);
  }
}

// -- ReviewPanel: the game review (button, progress, marks) and the deal-level setting -------

const DEAL_LEVELS = ["any", "winnable", "easy", "medium", "hard"];

class ReviewPanel {
  /** @param {Board} board */
  constructor(board) {
    this.board = board;
    const b = board;
    // The deal-level setting sits in the settings panel, before its Close button.
    this.levelSel = b.select("kw-sel-level", (v) => b.send("set_deal_level", { level: v }), b.settingsEl);
    b.settingsClose.before(/** @type {HTMLElement} */ (this.levelSel.parentElement));
    // The progress of a review running in the kernel's background thread.
    this.progressEl = h("div", "kw-review-progress", { role: "progressbar", "aria-valuemin": "0" });
    this.progressEl.hidden = true;
    this.progressBar = h("span", "kw-review-bar");
    this.progressText = h("span", "kw-review-text");
    this.progressEl.append(this.progressBar, this.progressText);
    b.stage.before(this.progressEl);
    // What the review found, over the list of the history.
    this.summaryEl = h("p", "kw-line-summary");
    this.summaryEl.hidden = true;
    const head = /** @type {HTMLElement} */ (b.lineView.lineEl.querySelector(".kw-line-head"));
    head.after(this.summaryEl);
    this.onLevel = () => this.renderChrome();
    b.model.on("change:deal_level", this.onLevel);
  }

  destroy() {
    this.board.model.off("change:deal_level", this.onLevel);
  }

  renderChrome() {
    const b = this.board;
    const t = (/** @type {string} */ k) => b.i18n.t(k);
    b.fillSelect(
      this.levelSel,
      "settings.deal_level.label",
      DEAL_LEVELS.map((v) => [v, t(`settings.deal_level.${v}`)]),
      b.model.get("deal_level") || "any",
    );
  }

  /**
   * The Review button: in the "more" menu during a game, in plain sight once the game is won or
   * can no longer be won; a Review button in the win box too; the progress while it runs.
   * @param {View} v
   */
  render(v) {
    const b = this.board;
    const t = (/** @type {string} */ k) => b.i18n.t(k);
    const btn = b.buttons.review;
    const run = v.review;
    const over = v.status === "won" || v.analysis === "unwinnable";
    btn.classList.toggle("kw-more", !over);
    btn.classList.toggle("kw-suggested", over && Boolean(v.reviewable));
    btn.disabled = !v.reviewable || Boolean(run) || v.status === "finishing";
    btn.setAttribute("aria-busy", String(Boolean(run)));
    this.progressEl.hidden = !run;
    if (run) {
      const text = v.texts.review || "";
      this.progressText.textContent = text;
      this.progressEl.setAttribute("aria-valuemax", String(run.total));
      this.progressEl.setAttribute("aria-valuenow", String(run.decided));
      this.progressEl.setAttribute("aria-valuetext", text);
      this.progressBar.style.inlineSize = `${run.total ? (100 * run.decided) / run.total : 0}%`;
    }
    const box = b.winEl.querySelector(".kw-win-box");
    if (box && !box.querySelector(".kw-btn-review-game")) {
      const again = h("button", "kw-btn kw-btn-review-game", { type: "button" });
      again.textContent = t("button.review.label");
      again.title = t("button.review.tooltip");
      again.addEventListener("click", () => b.send("review"));
      box.append(again);
    }
  }

  /**
   * Mark the moves a review marked (the losing move): an icon and words, not colour alone.
   * @param {HTMLElement[]} items  the list's entries, by step (0 = the start)
   * @param {any} lv  the line_view trait
   */
  markItems(items, lv) {
    this.summaryEl.hidden = !lv.summary;
    this.summaryEl.textContent = lv.summary || "";
    for (const [index, text] of lv.marks || []) {
      const item = items[index + 1];
      if (!item) continue;
      item.classList.add("kw-line-marked");
      const mark = h("span", "kw-line-mark");
      const icon = h("span", "kw-line-mark-icon", { "aria-hidden": "true" });
      icon.textContent = "✗";
      const words = h("span", "kw-line-mark-text");
      words.textContent = text;
      mark.append(icon, words);
      item.querySelector(".kw-line-num")?.after(mark);
    }
  }
}

// -- LessonPanel: a lesson's live board (the question, the verdict, hint, show me) ----------

class LessonPanel {
  /** @param {Board} board */
  constructor(board) {
    this.board = board;
    const b = board;
    const box = h("section", "kw-lesson-box");
    box.hidden = true;
    this.el = box;
    this.titleEl = h("h3", "kw-lesson-title");
    this.questionEl = h("p", "kw-lesson-question");
    this.verdictEl = h("p", "kw-lesson-verdict", { role: "status" });
    this.hintEl = h("p", "kw-lesson-hint");
    const actions = h("div", "kw-lesson-actions");
    /** @type {Object<string, HTMLButtonElement>} */
    this.buttons = {};
    for (const [key, kind] of [
      ["hint", "lesson_hint"],
      ["show", "lesson_show"],
      ["retry", "lesson_retry"],
    ]) {
      const btn = /** @type {HTMLButtonElement} */ (h("button", `kw-btn kw-btn-lesson-${key}`, { type: "button" }));
      btn.addEventListener("click", () => b.send(kind));
      this.buttons[key] = btn;
      actions.append(btn);
    }
    box.append(this.titleEl, this.questionEl, this.verdictEl, this.hintEl, actions);
    b.stage.before(box);
  }

  renderChrome() {
    const t = (/** @type {string} */ k) => this.board.i18n.t(k);
    for (const [key, btn] of Object.entries(this.buttons)) {
      btn.textContent = t(`lesson.${key}.label`);
      if (key !== "hint") btn.title = t(`lesson.${key}.tooltip`);
    }
  }

  /** @param {View} v */
  render(v) {
    const l = v.lesson;
    this.board.root.classList.toggle("kw-lesson", Boolean(l));
    this.el.hidden = !l;
    if (!l) return;
    this.titleEl.textContent = l.title;
    const note = l.kind === "answer" ? ` ${this.board.i18n.t("lesson.answer_in_cell")}` : "";
    this.questionEl.textContent = l.question + note;
    const verdict = l.verdict;
    this.verdictEl.hidden = !verdict;
    this.verdictEl.replaceChildren();
    if (verdict) {
      const state = verdict.ok === true ? "right" : verdict.ok === false ? "wrong" : "going";
      this.verdictEl.dataset.verdict = state;
      const icon = h("span", "kw-lesson-icon", { "aria-hidden": "true" });
      icon.textContent = { right: "✓", wrong: "✗", going: "…" }[state];
      const words = h("span", "kw-lesson-words");
      words.textContent = verdict.text;
      this.verdictEl.append(icon, words);
    }
    this.hintEl.hidden = !l.hint;
    this.hintEl.textContent = l.hint || "";
    this.buttons.show.hidden = l.kind === "answer";
    this.buttons.show.disabled = v.status === "finishing";
  }
}

export default {
  /** @param {{model: any, el: HTMLElement}} ctx */
  render({ model, el }) {
    const board = new Board(model, el);
    return () => board.destroy();
  },
};
