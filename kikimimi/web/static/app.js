// The web console's pages: no build step, no library.  Every push of the table arrives as
// a server-sent event; the log is a polite live region, so a screen reader says each new line.
"use strict";
(function () {
  const STRINGS = window.KIKIMIMI_STRINGS || {en: {}};
  let lang = (navigator.language || "en").startsWith("ja") ? "ja" : "en";
  let csrf = "";
  let lastInput = null;
  const MAX_LINES = 400;
  const $ = (id) => document.getElementById(id);
  const t = (key) => (STRINGS[lang] || {})[key] || STRINGS.en[key] || key;

  function applyStrings() {
    document.documentElement.lang = lang;
    document.querySelectorAll("[data-i18n]").forEach((el) => { el.textContent = t(el.dataset.i18n); });
  }
  function setLang(next) {
    if ((next === "en" || next === "ja") && next !== lang) { lang = next; applyStrings(); }
  }
  function say(id, text) { const el = $(id); if (el) el.textContent = text; }
  function lines(id, items) {
    const el = $(id);
    if (!el) return;
    el.replaceChildren(...(items || []).filter((x) => x !== "").map((x) => {
      const li = document.createElement("li"); li.textContent = x; return li;
    }));
  }
  function addEvents(events, fresh) {
    const log = $("log");
    if (!log) return;
    if (fresh) log.replaceChildren();
    const shown = fresh ? events.slice(-MAX_LINES) : events;
    for (const ev of shown) {
      const li = document.createElement("p");
      li.textContent = ev.text;
      log.appendChild(li);
    }
    while (log.children.length > MAX_LINES) log.removeChild(log.firstChild);
    log.scrollTop = log.scrollHeight;
  }
  function nonce() {
    const bytes = new Uint8Array(16);
    crypto.getRandomValues(bytes);
    return Date.now() + "." + Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
  }
  async function post(path, body) {
    let answer;
    try {
      const response = await fetch(path, {method: "POST", credentials: "same-origin",
        headers: {"Content-Type": "application/json", "X-CSRF-Token": csrf, "X-Kikimimi-Nonce": nonce()},
        body: JSON.stringify(body)});
      answer = await response.json();
    } catch (err) {
      answer = {error: String(err)};
    }
    say("reply", answer.text || answer.error || "");
    return answer;
  }

  function follow(url, onView) {
    const source = new EventSource(url);
    source.onmessage = (message) => {
      const data = JSON.parse(message.data);
      if (data.header && data.header.lang) setLang(data.header.lang);
      if ("status" in data && !data.welcome) {
        say("status", data.connected ? t("connected") : t("lost") + " (" + data.status + ")");
        return;
      }
      if (data.welcome) say("status", data.connected ? t("connected") : t("lost"));
      addEvents(data.events || [], !!data.welcome);
      onView(data);
    };
    source.onerror = () => say("status", t("lost"));
    return source;
  }

  function audience() {
    follow("/api/audience/events", (data) => {
      lines("view", data.table);
      if (data.over) say("status", t("over"));
    });
  }

  function pair() {
    $("pair-form").addEventListener("submit", async (e) => {
      e.preventDefault();
      const answer = await post("/api/pair", {code: $("code").value});
      if (answer.role) {
        say("reply", t("pair.done"));
        window.location.assign("/" + answer.role);
      }
    });
  }

  async function session() {
    const response = await fetch("/api/session", {credentials: "same-origin"});
    const answer = await response.json();
    if (!response.ok) { window.location.assign("/pair"); return null; }
    csrf = answer.csrf;
    return answer;
  }

  function referee() {
    const command = (text) => post("/api/referee/command", {text});
    document.querySelectorAll("button[data-cmd]").forEach((b) => b.addEventListener("click", () => command(b.dataset.cmd)));
    const asking = (on) => { $("undo-yes").hidden = !on; $("undo-no").hidden = !on; $("undo").hidden = on; };
    $("undo").addEventListener("click", () => {
      if (!lastInput) { say("reply", t("nothing")); return; }
      say("reply", t("undo.ask") + " " + lastInput[0] + ": " + lastInput[1] + "?");
      asking(true);
      $("undo-yes").focus();
    });
    $("undo-no").addEventListener("click", () => { asking(false); say("reply", ""); $("undo").focus(); });
    $("undo-yes").addEventListener("click", async () => {
      asking(false);
      await post("/api/referee/command", {undo: lastInput ? lastInput[0] : -1});
      $("undo").focus();
    });
    $("scan-form").addEventListener("submit", (e) => {
      e.preventDefault();
      command("scan " + $("scan-seat").value.trim() + " " + $("scan-tag").value.trim());
    });
    $("bot-on").addEventListener("click", () => command("bot " + $("bot-seat").value.trim()));
    $("bot-off").addEventListener("click", () => command("unbot " + $("bot-seat").value.trim()));
    $("reader-lost").addEventListener("click", () => command("lost " + $("bot-seat").value.trim()));
    $("reader-back").addEventListener("click", () => command("back " + $("bot-seat").value.trim()));
    let games = [];
    const shown = (v) => (v === null || v === undefined) ? "" : (typeof v === "object" ? JSON.stringify(v) : String(v));
    // One field per option the game's schema declares; only the ones the referee changes are sent.
    function field(id, label, note, start, build) {
      const wrap = document.createElement("div"); wrap.className = "row";
      const lab = document.createElement("label"); lab.htmlFor = id; lab.textContent = label;
      const input = build(); input.id = id; input.dataset.start = start;
      const help = document.createElement("span"); help.id = id + "-help"; help.textContent = note;
      input.setAttribute("aria-describedby", help.id);
      wrap.append(lab, input, help);
      $("game-fields").appendChild(wrap);
      return input;
    }
    function optionFields() {
      const game = games.find((g) => g.name === $("game-name").value);
      $("game-fields").replaceChildren();
      $("game-options").hidden = !game;
      if (!game) return;
      field("opt-players", t("game.players"), t("game.range") + " " + game.min_players + "-" + game.max_players,
        String(game.players), () => {
          const i = document.createElement("input"); i.type = "number"; i.min = game.min_players;
          i.max = game.max_players; i.value = String(game.players); i.dataset.key = "players"; return i;
        });
      for (const o of game.options) {
        const start = shown("value" in o ? o.value : o.default);
        const note = t("game.default") + ": " + (shown(o.default) || "-") + "; " + o.describe + (lang === "en" ? ". " + o.help : "");
        field("opt-" + o.name, o.name, note, start, () => {
          let i;
          if (o.kind === "choice") {
            i = document.createElement("select");
            for (const c of o.choices) { const op = document.createElement("option"); op.value = c; op.textContent = c; i.appendChild(op); }
          } else {
            i = document.createElement("input");
            if (o.kind === "whole" || o.kind === "number") {
              i.type = "number"; i.step = o.kind === "whole" ? "1" : "any"; i.min = String(o.low);
              if (o.high < 1000000) i.max = String(o.high);
            }
          }
          i.value = start; i.dataset.key = o.name; return i;
        });
      }
    }
    fetch("/api/referee/games", {credentials: "same-origin"}).then((r) => r.json()).then((answer) => {
      games = answer.games || [];
      for (const g of games) { const op = document.createElement("option"); op.value = g.name; op.textContent = g.name; $("game-name").appendChild(op); }
    }).catch(() => {});
    $("game-name").addEventListener("change", optionFields);
    $("game-form").addEventListener("submit", (e) => {
      e.preventDefault();
      const name = $("game-name").value;
      if (!name) { command("new"); return; }
      const words = ["game", name];
      $("game-fields").querySelectorAll("[data-key]").forEach((i) => {
        const value = i.value.trim();
        if (value !== "" && value !== i.dataset.start) words.push(i.dataset.key + "=" + value.replace(/\s+/g, ""));
      });
      command(words.join(" "));
    });
    $("command-form").addEventListener("submit", (e) => {
      e.preventDefault();
      const text = $("command").value.trim();
      if (text) command(text).then(() => { $("command").value = ""; });
    });
    session().then((s) => {
      if (!s) return;
      follow("/api/referee/events", (data) => {
        lines("view", data.table);
        lines("session", data.session);
        lines("health", data.health);
        lines("order", data.order);
        lastInput = data.last_input ? [data.last_input[0], data.last_text || JSON.stringify(data.last_input[1])] : null;
        say("last", lastInput ? lastInput[0] + ": " + lastInput[1] : "-");
        const g = data.game_line;
        say("game", g ? [g.game, t("game.players") + " " + g.players,
          ...Object.entries(g.options || {}).map(([k, v]) => k + "=" + JSON.stringify(v))].join(" · ") : "-");
        say("phase", data.phase == null ? "-" : String(data.phase));
        say("clock", data.clock == null ? "-" : Number(data.clock).toFixed(1));
        if (data.over) say("status", t("over"));
      });
    });
  }

  function cell(row, text) { const td = document.createElement("td"); td.textContent = text; row.appendChild(td); return td; }

  async function owner() {
    const me = await session();
    if (!me) return;
    say("fingerprint", me.fingerprint || "-");
    for (let n = 1; n <= (me.seats || 0); n++) {
      const op = document.createElement("option"); op.value = "seat-" + n; op.textContent = t("seat") + " " + n;
      $("hear-output").appendChild(op);
    }
    $("hear-form").addEventListener("submit", (e) => {
      e.preventDefault();
      post("/api/owner/say", {what: "output", output: $("hear-output").value});
    });
    $("hear-fingerprint").addEventListener("click", () => post("/api/owner/say", {what: "fingerprint"}));
    const doctor = async () => {
      say("reply", t("loading"));
      const answer = await (await fetch("/api/owner/doctor", {credentials: "same-origin"})).json();
      const body = document.querySelector("#doctor tbody");
      body.replaceChildren();
      const checks = (answer.checks || []).slice().sort((a, b) => Number(a.ok) - Number(b.ok));  // what to mend first
      for (const c of checks) {
        const row = document.createElement("tr");
        const name = cell(row, (c.ok ? "✓ " + t("ok") + ": " : "✗ ") + c.name);
        if (!c.ok) name.className = "bad";
        cell(row, c.detail);
        cell(row, c.ok ? "" : c.fix);
        body.appendChild(row);
      }
      say("reply", answer.error || "");
    };
    const records = async () => {
      const answer = await (await fetch("/api/owner/records", {credentials: "same-origin"})).json();
      const body = document.querySelector("#records tbody");
      body.replaceChildren();
      const players = (answer.players || []).sort((a, b) => b.wins - a.wins);
      if (!players.length) { const row = document.createElement("tr"); cell(row, t("norecords")).colSpan = 4; body.appendChild(row); }
      for (const p of players) {
        const row = document.createElement("tr");
        cell(row, p.name); cell(row, (p.peerage ? p.peerage + " " : "") + p.rank); cell(row, String(p.wins)); cell(row, String(p.games));
        body.appendChild(row);
      }
    };
    const devices = async () => {
      const answer = await (await fetch("/api/owner/devices", {credentials: "same-origin"})).json();
      const body = document.querySelector("#devices tbody");
      body.replaceChildren();
      for (const d of answer.devices || []) {
        const row = document.createElement("tr");
        cell(row, d.id + " (" + d.name + ")"); cell(row, d.role);
        const button = document.createElement("button");
        button.type = "button"; button.textContent = t("revoke") + " " + d.id;
        button.addEventListener("click", async () => { await post("/api/owner/revoke", {id: d.id}); devices(); });
        cell(row, "").appendChild(button);
        body.appendChild(row);
      }
    };
    $("doctor-again").addEventListener("click", doctor);
    await Promise.all([doctor(), records(), devices()]);
  }

  document.addEventListener("DOMContentLoaded", () => {
    applyStrings();
    const which = document.body.dataset.page;
    ({audience, pair, referee, owner}[which] || (() => {}))();
  });
})();
