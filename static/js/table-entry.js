/* The table's phone page (templates/entry/link.html, correct.html): one thumb, weak Wi-Fi.

   - Card keypad: a sheet above the bar. A key adds one card as the game's keypad spells it (no
     suit is ever invented: K, 10, AB, JK); ×2 / ×3, or a long press (two), add several. The sheet
     shows the hand's count and points; Next goes to the next seat, Out marks who went out.
   - Live check: the form is checked and scored by the page's own endpoint (POST
     /t/<token>/check, every game); the bar shows each side's score as it will be saved. A line's
     problems show once the line is left or Save is pressed, in the line's reserved note, so no
     field ever moves under a finger.
   - Draft: what is typed is kept on the phone (localStorage) as it is typed, and put back after
     a reload, Back, a closed tab or a locked phone.
   - Outbox: Save stores the result on the phone with a fresh Idempotency-Key and sends it to
     the table API (PUT /api/tables/{id}/games/{n}/result), retried with backoff until the
     server answers. A retry can never store it twice (entry/idempotency.py). If someone else
     saved that deal first (409), both results are shown and the scorekeeper chooses: keep the
     stored one (theirs is set aside on this phone, not lost) or save this phone's as a
     correction (the stored one stays in the history). The outbox is kept in IndexedDB, asked
     to persist (navigator.storage.persist) so that the browser does not clear it to make room
     (localStorage where IndexedDB cannot open); the page lists what it holds, since when, and
     when each result was sent, and asks before it is left while it holds one.
   - In place: once a result is saved the page asks for the parts of itself that changed
     (GET /t/<token>/parts, entry/parts.py) and puts them in, the form moving on to the next
     deal: no reload, so the page keeps working through a Wi-Fi drop even over plain http,
     where no service worker can keep it.
   - Offline over https: a service worker (/t/sw.js) keeps the page and its assets.

   - Words: every sentence goes through Django's JavaScript catalogue (gettext, ngettext,
     interpolate from /jsi18n/, config/i18n.py), loaded before this script where the page is not
     in English; in English the catalogue is not fetched and the words below are the page's own.

   Without this script the page works as plain forms (Preview, Save). */
(function () {
  "use strict";

  var gettext = window.gettext || function (text) { return text; };
  var ngettext = window.ngettext || function (one, many, count) {
    return count === 1 ? one : many;
  };
  var interpolate = window.interpolate || function (text, values) {
    return text.replace(/%\((\w+)\)s/g, function (all, name) { return String(values[name]); });
  };

  var configNode = document.getElementById("table-entry-config");
  if (!configNode) return;
  var config = JSON.parse(configNode.textContent);
  var entry = config.entry;
  var form = document.querySelector("form[data-entry-form]");
  var statusNode = document.querySelector("[data-outbox-status]");
  var heldNode = null;
  var PREFIX = "table:" + config.token + ":";
  var WORDS = { JK: gettext("Add a joker"), AB: gettext("Add a black ace"),
    AR: gettext("Add a red ace"), A: gettext("Add an ace"), K: gettext("Add a king"),
    Q: gettext("Add a queen"), J: gettext("Add a jack"), "10": gettext("Add a ten"),
    "9": gettext("Add a nine"), "8": gettext("Add an eight"), "7": gettext("Add a seven"),
    "6": gettext("Add a six"), "5": gettext("Add a five"), "4": gettext("Add a four"),
    "3": gettext("Add a three"), "2": gettext("Add a two") };

  /* --- the phone's storage ------------------------------------------------------------------ */

  function load(name, fallback) {
    try {
      var text = localStorage.getItem(PREFIX + name);
      return text ? JSON.parse(text) : fallback;
    } catch (error) {
      return fallback;
    }
  }

  function store(name, value) {
    try {
      if (value === null || value === undefined) localStorage.removeItem(PREFIX + name);
      else localStorage.setItem(PREFIX + name, JSON.stringify(value));
    } catch (error) { /* private mode or full: the page still works, unkept */ }
  }

  function newKey() {
    if (window.crypto && crypto.randomUUID) return crypto.randomUUID();
    var bytes = crypto.getRandomValues(new Uint8Array(16));
    return Array.prototype.map.call(bytes, function (b) {
      return (b + 256).toString(16).slice(1);
    }).join("");
  }

  function element(tag, className, text) {
    var node = document.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined) node.textContent = text;
    return node;
  }

  function button(text, label, onClick, className) {
    var node = element("button", className || "", text);
    node.type = "button";
    if (label) node.setAttribute("aria-label", label);
    node.addEventListener("click", onClick);
    return node;
  }

  /* --- what the page says -------------------------------------------------------------------- */

  function say(text, kind) {
    if (!statusNode) return;
    statusNode.hidden = !text;
    statusNode.textContent = text || "";
    statusNode.className = "outbox-status" + (kind ? " " + kind : "");
  }

  function results(count) {
    return interpolate(ngettext("%(count)s result", "%(count)s results", count),
      { count: count }, true);
  }

  function cardsAndPoints(cards, points) {
    return interpolate(ngettext("%(count)s card", "%(count)s cards", cards), { count: cards },
      true) + " · " + interpolate(ngettext("%(count)s point", "%(count)s points", points),
      { count: points }, true);
  }

  /* --- where results are held: IndexedDB, persistent where the browser grants it ----------- */

  var boxOpened = null;
  var persisted = false;

  function box() {
    if (boxOpened) return boxOpened;
    boxOpened = new Promise(function (resolve) {
      try {
        var request = indexedDB.open("table-outbox", 1);
        request.onupgradeneeded = function () { request.result.createObjectStore("kept"); };
        request.onsuccess = function () { resolve(request.result); };
        request.onerror = function () { resolve(null); };
        request.onblocked = function () { resolve(null); };
      } catch (error) {
        resolve(null); // no IndexedDB (a private window of an old browser): localStorage
      }
    });
    return boxOpened;
  }

  function boxGet(name) {
    return box().then(function (db) {
      if (!db) return load(name, null);
      return new Promise(function (resolve) {
        var request = db.transaction("kept").objectStore("kept").get(PREFIX + name);
        request.onsuccess = function () { resolve(request.result === undefined ? null : request.result); };
        request.onerror = function () { resolve(load(name, null)); };
      });
    });
  }

  var writing = Promise.resolve();

  function boxPut(name, value) {
    writing = writing.then(box).then(function (db) {
      if (!db) return store(name, value);
      return new Promise(function (resolve) {
        var kept = db.transaction("kept", "readwrite");
        if (value === null) kept.objectStore("kept").delete(PREFIX + name);
        else kept.objectStore("kept").put(value, PREFIX + name);
        kept.oncomplete = kept.onerror = kept.onabort = function () { resolve(); };
      });
    });
    return writing;
  }

  /* Asked once something is held: Chromium grants it to a page in use (no prompt), and the
     browser then never clears this site's storage to make room. */
  function persist() {
    var storage = navigator.storage;
    if (!storage || !storage.persist) return;
    storage.persisted().then(function (already) {
      return already || storage.persist();
    }).then(function (granted) {
      persisted = Boolean(granted);
      showHeld();
    }).catch(function () { /* kept all the same, best effort */ });
  }

  /* --- the outbox ---------------------------------------------------------------------------- */

  var outbox = [];
  var sentLog = [];
  var sending = false;
  var retryTimer = null;
  var channel = window.BroadcastChannel ? new BroadcastChannel(PREFIX + "outbox") : null;
  var ready = Promise.all([boxGet("outbox"), boxGet("sent")]).then(function (kept) {
    var older = load("outbox", null); // an outbox kept before IndexedDB: moved over, not lost
    outbox = (kept[0] || []).concat((older || []).filter(function (item) {
      return !(kept[0] || []).some(function (other) { return other.key === item.key; });
    }));
    sentLog = kept[1] || [];
    if (older) {
      keepOutbox();
      store("outbox", null);
    }
  });

  function keepOutbox() {
    boxPut("outbox", outbox.length ? outbox : null).then(function () {
      if (channel) channel.postMessage("outbox");
    });
  }

  function held() {
    return outbox.filter(function (item) { return item.state !== "sent"; });
  }

  function waiting() {
    return outbox.filter(function (item) { return item.state === "waiting"; });
  }

  function showOutbox() {
    var count = waiting().length;
    var stuck = outbox.filter(function (item) { return item.state === "stuck"; });
    if (stuck.length) {
      say(stuck.map(function (item) {
        return interpolate(gettext("%(title)s is not saved: %(why)s"),
          { title: item.title, why: item.message }, true);
      }).join(" "), "problem");
    } else if (count && navigator.onLine && waiting()[0].busy) {
      say(waiting()[0].busy + " " + interpolate(gettext("Kept on this phone (%(results)s), " +
        "sent by itself when the server is back."), { results: results(count) }, true),
      "waiting");
    } else if (count && (!navigator.onLine || outbox.some(function (i) { return i.tries > 0; }))) {
      say(interpolate(gettext("Waiting for the network (%(results)s): kept on this phone, " +
        "sent as soon as the network returns."), { results: results(count) }, true), "waiting");
    } else if (count) {
      say(interpolate(gettext("Saving %(title)s…"),
        { title: waiting()[0].title.toLowerCase() }, true), "waiting");
    }
    showConflicts();
    showQueued();
    showHeld();
  }

  /* A time of day in the page's language (14:05, as the page's own times). */
  function clock(at) {
    return new Date(at).toLocaleTimeString(document.documentElement.lang || undefined,
      { hour: "2-digit", minute: "2-digit", hour12: false });
  }

  /* What this phone holds and since when, in so many words (the status says when each result
     was sent; the phone keeps the last ten sent, with their times, in its store). */
  function showHeld() {
    if (!statusNode) return;
    if (!heldNode) {
      heldNode = element("div", "held small");
      heldNode.setAttribute("aria-label", gettext("Results on this phone"));
      heldNode.setAttribute("role", "region");
      statusNode.insertAdjacentElement("afterend", heldNode);
    }
    heldNode.textContent = "";
    var list = element("ul");
    held().forEach(function (item) {
      var values = { title: item.title, since: clock(item.queued) };
      var text = interpolate(item.state === "waiting" ?
        gettext("%(title)s: held on this phone since %(since)s, not sent yet.") :
        item.state === "conflict" ?
          gettext("%(title)s: held on this phone since %(since)s, waiting for your choice.") :
          gettext("%(title)s: held on this phone since %(since)s, not saved."), values, true);
      if (item.tried) {
        text += " " + interpolate(gettext("Last tried at %(time)s."), { time: clock(item.tried) },
          true);
      }
      list.appendChild(element("li", "holding", text));
    });
    if (held().length) {
      list.appendChild(element("li", "muted", persisted ? gettext("Kept on this phone until it " +
        "is sent, even if the page is closed.") : gettext("Kept on this phone until it is sent; " +
        "leave this page open until then.")));
    }
    heldNode.appendChild(list);
    heldNode.hidden = !list.children.length;
  }

  function flush() {
    clearTimeout(retryTimer);
    if (sending) return;
    var item = waiting()[0];
    if (!item) return showOutbox();
    sending = true;
    showOutbox();
    send(item).then(function (answered) {
      sending = false;
      if (answered) return flush();
      item.tries += 1;
      item.tried = Date.now();
      keepOutbox();
      showOutbox();
      var wait = Math.min(30000, 1000 * Math.pow(2, Math.min(item.tries - 1, 5)));
      retryTimer = setTimeout(flush, wait * (0.75 + Math.random() / 2));
    });
  }

  function send(item) {
    return fetch(item.url, {
      method: "PUT",
      headers: {
        "Content-Type": "application/json",
        Accept: "application/json",
        Authorization: "Table " + config.token,
        "Idempotency-Key": item.key,
        Prefer: "return=minimal", // the page shows the scores: the answer says it is stored
      },
      body: JSON.stringify(item.body),
      credentials: "omit",
      referrerPolicy: "no-referrer", // the link is in the Authorization header already
    }).then(function (response) {
      return response.json().catch(function () { return {}; }).then(function (answer) {
        return answered(item, response.status, answer);
      });
    }, function () { // no network: try again later
      item.busy = null;
      return false;
    });
  }

  /* What the server said when it could not save (full disk, overloaded, restarting), in its
     first sentence, or in words of ours: the network is fine, the server is not. */
  var BUSY = {
    429: gettext("The server is overloaded; nothing was saved."),
    500: gettext("The server failed to save it; nothing was saved."),
    502: gettext("The server did not answer; nothing was saved."),
    503: gettext("The server is busy; nothing was saved."),
    504: gettext("The server did not answer in time; nothing was saved."),
  };

  function serverSaid(status, answer) {
    var said = answer.errors && answer.errors[0] && answer.errors[0].message;
    var first = said ? (String(said).match(/^[^]*?\.(?=\s|$)/) || [String(said)])[0] : "";
    first = first.slice(0, 200);
    return first || BUSY[status] || interpolate(gettext("The server could not save it " +
      "(%(status)s); nothing was saved."), { status: status }, true);
  }

  function answered(item, status, answer) {
    if (status === 200 || status === 201) {
      stored(item, answer);
    } else if (status === 409 && answer.current) {
      item.state = "conflict";
      item.current = answer.current;
      keepOutbox();
    } else if (status === 400) {
      refused(item, answer);
    } else if (status >= 500 || status === 408 || status === 429) {
      item.busy = serverSaid(status, answer);
      return false;
    } else {
      item.state = "stuck"; // the link was reissued, the round locked...: kept, never dropped
      item.message = answer.detail || (answer.errors && answer.errors[0] &&
        answer.errors[0].message) || interpolate(gettext("the server answered %(status)s."),
        { status: status }, true);
      keepOutbox();
    }
    return true;
  }

  function stored(item, answer) {
    outbox = outbox.filter(function (other) { return other !== item; });
    keepOutbox();
    sentLog = sentLog.concat([{ title: item.title, at: Date.now() }]).slice(-10);
    boxPut("sent", sentLog);
    store(item.draft, null);
    var values = { title: item.title, version: answer.version, time: clock(Date.now()),
      since: clock(item.queued) };
    var text = interpolate(answer.void ? gettext("%(title)s is recorded as void (R9.2): the " +
      "same dealer deals it again.") : item.body.version ? gettext("%(title)s is corrected: " +
      "this is version %(version)s.") : gettext("%(title)s is saved."), values, true);
    if (answer.status === "pending") text += " " + gettext("It counts once another player " +
      "confirms it.");
    if (answer.flagged) text += " " + gettext("It is flagged for the director (warnings " +
      "confirmed).");
    text += " " + interpolate(item.tried ? gettext("Sent at %(time)s (held on this phone since " +
      "%(since)s).") : gettext("Sent at %(time)s."), values, true);
    say(text);
    if (entry && entry.correcting) { // the correction's own page: back to the table's
      try { sessionStorage.setItem(PREFIX + "notice", text); } catch (error) { /* said */ }
      window.location.assign(config.link + "#game-" + item.game);
    } else if (!waiting().length) {
      catchUp();
    }
  }

  function refused(item, answer) {
    outbox = outbox.filter(function (other) { return other !== item; });
    keepOutbox();
    var problems = (answer.errors || []).concat((answer.warnings || []).map(function (p) {
      return Object.assign({ warning: true }, p);
    }));
    if (!problems.length) {
      problems = Object.keys(answer).map(function (key) {
        return { message: key + ": " + JSON.stringify(answer[key]) };
      });
    }
    if (form && entry && item.game === entry.game) {
      restore(item.snapshot);
      store(item.draft, item.snapshot);
      form.hidden = false;
      showAll = true;
      showProblems(placed(answer.errors), placed(answer.warnings), true);
      var why = answer.errors && answer.errors.length ? gettext("fix the marked fields.") :
        answer.warnings && answer.warnings.length ?
          gettext("check the warnings, and confirm them if the result is right.") :
          problems.map(function (p) { return p.message; }).join(" ");
      say(interpolate(gettext("%(title)s is not saved: %(why)s"), { title: item.title, why: why },
        true), "problem");
      saveButton(false);
    } else {
      item.state = "stuck";
      item.message = problems.map(function (p) { return p.message; }).join(" ");
      outbox.push(item);
      keepOutbox();
    }
  }

  /* The table API names a problem's side and member (`entry/api.py`): the line it is shown on. */
  function placed(problems) {
    return (problems || []).map(function (problem) {
      var row = typeof problem.side === "number" ? entry.rows[problem.side] : null;
      var member = row && typeof problem.member === "number" ? row.members[problem.member] : null;
      var prefix = member ? member.prefix : row ? row.prefix : null;
      return Object.assign({ prefix: prefix }, problem);
    });
  }

  /* Someone else saved the same deal first: both shown, the scorekeeper chooses. */
  var conflictsNode = null;

  function showConflicts() {
    var conflicts = outbox.filter(function (item) { return item.state === "conflict"; });
    if (!conflictsNode && conflicts.length) {
      conflictsNode = element("section", "conflicts");
      conflictsNode.setAttribute("aria-label", gettext("Results to choose between"));
      statusNode.insertAdjacentElement("afterend", conflictsNode);
    }
    if (!conflictsNode) return;
    conflictsNode.hidden = !conflicts.length;
    conflictsNode.textContent = "";
    conflicts.forEach(function (item) { conflictsNode.appendChild(conflictPanel(item)); });
    if (conflicts.length) {
      say(interpolate(gettext("Someone else saved %(title)s first: choose which result the " +
        "table keeps."), { title: conflicts[0].title.toLowerCase() }, true), "problem");
    }
  }

  function conflictPanel(item) {
    var panel = element("div", "conflict");
    panel.appendChild(element("h3", "", interpolate(gettext("Someone else saved %(title)s first"),
      { title: item.title.toLowerCase() }, true)));
    panel.appendChild(element("p", "small", gettext("Nothing is lost: both results are here. " +
      "Keep the stored one, or save this phone's instead (the stored one stays in the " +
      "history).")));
    var both = element("div", "conflict-both");
    both.appendChild(listOf(interpolate(gettext("Stored (version %(version)s)"),
      { version: item.current.version }, true),
      (item.current.scores || []).map(function (score) {
        return score.player + ": " + score.points + (score.went_out ? ", " +
          gettext("went out") : "");
      })));
    both.appendChild(listOf(gettext("This phone's"), mine(item)));
    panel.appendChild(both);
    var actions = element("div", "conflict-actions");
    actions.appendChild(button(gettext("Keep the stored result"), null, function () {
      keepStored(item);
    }, "secondary"));
    actions.appendChild(button(gettext("Save mine instead"), null, function () {
      useMine(item);
    }));
    panel.appendChild(actions);
    return panel;
  }

  function listOf(title, lines) {
    var box = element("div");
    box.appendChild(element("h4", "", title));
    var list = element("ul");
    lines.forEach(function (line) { list.appendChild(element("li", "", line)); });
    box.appendChild(list);
    return box;
  }

  function mine(item) {
    return item.body.sides.map(function (side) {
      var parts = [];
      var values = side.values || {};
      Object.keys(values).forEach(function (name) {
        if (values[name] === true) parts.push(name.replace(/_/g, " "));
        else if (values[name] !== false) parts.push(name.replace(/_/g, " ") + " " + values[name]);
      });
      (side.members || []).forEach(function (member, index) {
        Object.keys(member).forEach(function (name) {
          if (member[name] !== false) parts.push("#" + (index + 1) + " " + name + " " + member[name]);
        });
      });
      var name = item.names[side.seat] || interpolate(gettext("Seat %(seat)s"), { seat: side.seat },
        true);
      return name + ": " + (parts.join(", ") || "–");
    });
  }

  function keepStored(item) {
    boxGet("set-aside").then(function (aside) {
      aside = (aside || []).concat([{ title: item.title, body: item.body, at: Date.now() }]);
      boxPut("set-aside", aside.slice(-50));
    });
    outbox = outbox.filter(function (other) { return other !== item; });
    keepOutbox();
    store(item.draft, null);
    var text = interpolate(gettext("%(title)s: the stored result is kept. This phone's entry " +
      "is set aside on the phone, not sent."), { title: item.title }, true);
    say(text);
    catchUp();
  }

  function useMine(item) {
    item.body = Object.assign({}, item.body, {
      version: item.current.version,
      reason: interpolate(gettext("Two phones entered %(title)s; the table chose the one from " +
        "%(phone)s."), { title: item.title.toLowerCase(),
        phone: item.body.entered_by || gettext("this phone") }, true),
    });
    item.key = newKey(); // a new request: a correction of the stored version
    item.state = "waiting";
    item.tries = 0;
    delete item.current;
    keepOutbox();
    flush();
  }

  /* A deal waiting in the outbox is not entered again meanwhile. */
  var queuedNode = null;

  function showQueued() {
    if (!form || !entry) { // the match is over: no form to come back, nothing to wait for
      if (queuedNode) queuedNode.hidden = true;
      return;
    }
    var item = outbox.find(function (other) {
      return other.game === entry.game && other.state !== "stuck";
    });
    form.hidden = Boolean(item) || catchingUp;
    if (!item && !catchingUp) {
      if (queuedNode) queuedNode.hidden = true;
      return;
    }
    if (!queuedNode) {
      queuedNode = element("div", "queued");
      queuedNode.setAttribute("role", "status");
      (heldNode || statusNode).insertAdjacentElement("afterend", queuedNode);
    }
    queuedNode.hidden = false;
    queuedNode.textContent = "";
    if (!item) {
      queuedNode.appendChild(element("p", "", interpolate(gettext("%(title)s is saved. The page " +
        "moves on as soon as the network answers: nothing to do meanwhile."),
        { title: entry.title }, true)));
      return;
    }
    queuedNode.appendChild(element("p", "", interpolate(item.state === "conflict" ?
      gettext("%(title)s: choose above which result the table keeps.") : gettext("%(title)s is " +
      "kept on this phone and sent as soon as the network answers. The page moves on once it " +
      "is saved."), { title: item.title }, true)));
    var list = element("ul", "small");
    mine(item).forEach(function (line) { list.appendChild(element("li", "", line)); });
    queuedNode.appendChild(list);
  }

  /* --- the page in place: the parts that changed, the form moved on ------------------------- */

  var catchingUp = false;
  var catchUpTries = 0;
  var catchUpTimer = null;

  function holding() {
    return Array.prototype.map.call(document.querySelectorAll("[data-part][data-key]"),
      function (node) { return node.dataset.key; }).filter(function (key) {
      return key !== "phone";
    }).join(".");
  }

  function catchUp() {
    clearTimeout(catchUpTimer);
    catchingUp = true;
    showQueued();
    return fetch(config.parts + "?have=" + holding(), { // answered no-store: never cached
      headers: { Accept: "application/json" },
      credentials: "same-origin",
      referrerPolicy: "no-referrer",
    }).then(function (response) {
      if (!response.ok) throw new Error(String(response.status));
      return response.json();
    }).then(function (answer) {
      catchingUp = false;
      catchUpTries = 0;
      putIn(answer.parts);
      formNow(answer);
      showOutbox();
    }).catch(function () {
      catchUpTries += 1;
      var wait = Math.min(30000, 1000 * Math.pow(2, Math.min(catchUpTries - 1, 5)));
      catchUpTimer = setTimeout(catchUp, wait);
    });
  }

  /* Each part sent takes its place; its slots take the parts this page holds, or those sent. */
  function putIn(parts) {
    var have = {};
    document.querySelectorAll("[data-part]").forEach(function (node) {
      have[node.dataset.part] = node;
    });
    var fresh = {};
    parts.forEach(function (part) {
      var template = document.createElement("template");
      template.innerHTML = part[2];
      fresh[part[0]] = template.content.firstElementChild;
    });
    Object.keys(fresh).forEach(function (name) {
      fresh[name].querySelectorAll("[data-slot]").forEach(function (slot) {
        var part = fresh[slot.dataset.slot] || have[slot.dataset.slot];
        if (part) slot.replaceWith(part);
        else slot.remove();
      });
    });
    Object.keys(fresh).forEach(function (name) {
      var old = have[name];
      if (old && old.isConnected && !fresh[name].isConnected) old.replaceWith(fresh[name]);
    });
  }

  /* The form after the page caught up: a new one set up, the same one moved on to the deal
     now played, or none once the match is over. */
  function formNow(answer) {
    var now = document.querySelector("form[data-entry-form]");
    if (now !== form) {
      closeSheet(false);
      if (sheet) sheet.remove();
      sheet = null;
      form = now;
      entry = now ? answer.entry : null;
      if (form && entry) setUpForm();
    } else if (form && answer.deal) {
      var attempt = form.elements.attempt ? Number(form.elements.attempt.value) : 1;
      if (answer.deal.game !== entry.game || answer.deal.attempt !== attempt) {
        moveOn(answer.deal);
      }
    }
    sizeBar();
  }

  /* The same form, emptied for `deal` (the next deal, or the same one dealt again). */
  function moveOn(deal) {
    closeSheet(false);
    store(draftName(), null);
    var who = form.elements.who.value;
    form.querySelectorAll("[data-implied-by] input").forEach(function (input) {
      input.disabled = false;
      delete input.dataset.own;
    });
    form.reset();
    form.elements.who.value = who;
    entry.game = deal.game;
    entry.title = deal.title;
    form.dataset.game = String(deal.game);
    form.elements.game.value = String(deal.game);
    if (form.elements.attempt) form.elements.attempt.value = String(deal.attempt);
    var title = deal.title.toLowerCase();
    form.querySelector(".save-button").textContent = interpolate(gettext("Save %(title)s"),
      { title: title }, true);
    form.querySelector(".bar-scores").setAttribute("aria-label", interpolate(
      gettext("%(title)s: the scores as they will be saved"), { title: deal.title }, true));
    var heading = document.getElementById("enter-title");
    if (heading) {
      heading.textContent = interpolate(gettext("Enter %(title)s"), { title: title }, true);
    }
    form.querySelectorAll(".draft-note, .preview, .bar > p.errors").forEach(function (node) {
      node.remove();
    });
    form.querySelectorAll("[data-more]").forEach(function (more) {
      var toggle = form.querySelector('[aria-controls="' + more.id + '"]');
      if (!toggle) return;
      more.hidden = true;
      toggle.setAttribute("aria-expanded", "false");
    });
    touched = {};
    showAll = false;
    lastAnswer = null;
    showAnswer({ rows: [], errors: [], warnings: [] });
    showOut();
    lines.forEach(showCards);
    saveButton(false);
    forgetOldDrafts();
    form.hidden = false;
    window.scrollTo(0, 0);
  }

  /* --- the form: draft, body, live check ------------------------------------------------------ */

  var showAll = false;
  var touched = {};
  var lines = [];

  function draftName() {
    var attempt = form.elements.attempt ? form.elements.attempt.value : "";
    var base = form.elements.base_version ? form.elements.base_version.value : "";
    return "draft:" + entry.game + ":" + (entry.correcting ? "v" + base : "a" + attempt);
  }

  function snapshot() {
    var data = {};
    Array.prototype.forEach.call(form.elements, function (input) {
      if (!input.name || input.type === "hidden" || input.type === "submit") return;
      if (input.type === "checkbox") data[input.name] = input.checked;
      else if (input.type === "radio") { if (input.checked) data[input.name] = input.value; }
      else data[input.name] = input.value;
    });
    return data;
  }

  function restore(data) {
    Array.prototype.forEach.call(form.elements, function (input) {
      if (!input.name || input.type === "hidden" || input.type === "submit") return;
      if (input.type === "radio") input.checked = data[input.name] === input.value;
      else if (input.type === "checkbox") input.checked = Boolean(data[input.name]);
      else if (input.name in data) input.value = data[input.name];
    });
    showOut();
  }

  function hasEntry(data) {
    return Object.keys(data).some(function (name) {
      return name !== "who" && data[name] !== "" && data[name] !== false;
    });
  }

  function keepDraft() {
    if (!form || !entry) return;
    var data = snapshot();
    store(draftName(), hasEntry(data) ? data : null);
    if (data.who) store("who", data.who);
  }

  function fieldValue(input, spec) {
    if (!input) return undefined;
    if (spec.kind === "flag") return Boolean(input.checked);
    var text = String(input.value).trim();
    if (text === "") return undefined;
    if ((spec.kind === "count" || spec.kind === "points") && /^-?\d+$/.test(text)) {
      return Number(text);
    }
    return text;
  }

  function valuesOf(prefix, scope, out) {
    var values = {};
    var exclusive = entry.exclusive;
    entry.fields.forEach(function (spec) {
      if (spec.scope !== scope || (exclusive && spec.name === exclusive.name)) return;
      var value = fieldValue(form.elements[prefix ? prefix + "-" + spec.name : spec.name], spec);
      if (value !== undefined) values[spec.name] = value;
    });
    if (exclusive && exclusive.scope === scope && scope !== "deal") values[exclusive.name] = out;
    return values;
  }

  function body() {
    var out = form.elements.went_out ? Number(form.elements.went_out.value) || null : null;
    var who = form.elements.who.value;
    var data = {
      game: entry.game,
      entered_by: config.names[who] || "",
      values: valuesOf("", "deal", false),
      sides: entry.rows.map(function (row) {
        var side = { seat: row.seat };
        side.values = valuesOf(row.prefix, "side", row.outs.indexOf(out) >= 0);
        if (row.members.length) { // left out where a side has no partners: the API's default
          side.members = row.members.map(function (member) {
            return valuesOf(member.prefix, "member", member.out === out);
          });
        }
        return side;
      }),
    };
    if (form.elements.confirm_warnings && form.elements.confirm_warnings.checked) {
      data.confirm_warnings = true; // false is the API's default: not sent
    }
    if (entry.correcting) {
      data.version = Number(form.elements.base_version.value);
      data.reason = form.elements.reason.value.trim();
    }
    return data;
  }

  function names() {
    var byseat = {};
    entry.rows.forEach(function (row) { byseat[row.seat] = row.name; });
    return byseat;
  }

  function saveButton(busy) {
    var save = form.querySelector(".save-button");
    if (!save) return;
    save.setAttribute("aria-disabled", busy ? "true" : "false");
    save.classList.toggle("busy", busy);
  }

  function queue() {
    var who = form.elements.who;
    if (!who.value) {
      say(gettext("Choose your name first (Who is entering?): the result records who entered " +
        "it."), "problem");
      who.focus();
      return;
    }
    if (entry.correcting && !form.elements.reason.value.trim()) {
      say(gettext("Say why it is corrected: every version is kept with its reason."), "problem");
      form.elements.reason.focus();
      return;
    }
    var item = {
      key: newKey(),
      game: entry.game,
      title: entry.title,
      url: config.result.replace("{n}", entry.game),
      body: body(),
      names: names(),
      snapshot: snapshot(),
      draft: draftName(),
      state: "waiting",
      tries: 0,
      queued: Date.now(),
    };
    closeSheet();
    saveButton(true);
    ready.then(function () {
      outbox.push(item);
      keepOutbox();
      persist();
      flush();
    });
  }

  /* The live check. */
  var checkTimer = null;
  var asked = 0;
  var lastAnswer = null;

  function live(text) {
    var node = form.querySelector("[data-live]");
    node.hidden = !text;
    node.textContent = text || "";
  }

  function check() {
    if (!navigator.onLine) {
      live(gettext("Offline: the scores are worked out when the result is sent."));
      return;
    }
    var data = new FormData(form);
    data.delete("action");
    var ask = ++asked;
    fetch(entry.check + (entry.correcting ? "?correcting=1" : ""), {
      method: "POST",
      body: data,
      headers: { Accept: "application/json" },
      credentials: "same-origin",
    }).then(function (response) {
      if (!response.ok) throw new Error(String(response.status));
      return response.json();
    }).then(function (answer) {
      if (ask !== asked) return;
      lastAnswer = answer;
      live("");
      showAnswer(answer);
    }).catch(function () {
      if (ask === asked) {
        live(gettext("No live check just now: the result is checked when it is saved."));
      }
    });
  }

  function later() {
    clearTimeout(checkTimer);
    checkTimer = setTimeout(check, 300);
  }

  function showAnswer(answer) {
    var scores = {};
    (answer.rows || []).forEach(function (row) { scores[row.prefix] = row; });
    form.querySelectorAll("[data-score-for]").forEach(function (output) {
      var row = scores[output.dataset.scoreFor];
      output.textContent = row && row.points !== null ? String(row.points) : "–";
    });
    lines.forEach(function (line) { line.reasons = (scores[line.prefix] || {}).reasons || []; });
    showProblems(answer.errors || [], answer.warnings || [], false);
  }

  function shown(problem) {
    return showAll || (problem.prefix ? touched[problem.prefix] : false);
  }

  function showProblems(errors, warnings, everything) {
    form.querySelectorAll(".has-problem").forEach(function (node) {
      node.classList.remove("has-problem");
    });
    form.querySelectorAll("[aria-invalid]").forEach(function (node) {
      node.removeAttribute("aria-invalid");
    });
    var all = errors.map(function (p) { return Object.assign({}, p); }).concat(
      warnings.map(function (p) { return Object.assign({ warning: true }, p); }));
    var visible = all.filter(function (p) { return everything || shown(p); });
    lines.forEach(function (line) {
      var mineNow = visible.filter(function (p) { return p.prefix === line.prefix; });
      line.problems = mineNow;
      mineNow.forEach(function (problem) { markField(line, problem); });
      showNote(line);
    });
    var bar = form.querySelector("[data-bar-problems]");
    var barErrors = visible.filter(function (p) { return !p.warning; });
    bar.textContent = "";
    barErrors.forEach(function (p) { bar.appendChild(element("li", "errors", p.message)); });
    bar.hidden = !barErrors.length || !(everything || showAll);
    var game = form.querySelector('[data-problems="game"]');
    game.textContent = "";
    visible.filter(function (p) { return !p.prefix && !p.warning; }).forEach(function (p) {
      game.appendChild(element("li", "", p.message));
    });
    game.hidden = !game.children.length;
    var box = form.querySelector("[data-warnings-box]");
    var list = box.querySelector("[data-warnings]");
    var warned = all.filter(function (p) { return p.warning; });
    list.textContent = "";
    warned.forEach(function (p) { list.appendChild(element("li", "", p.message)); });
    box.hidden = !warned.length || !(everything || showAll || allTouched());
    sizeBar();
  }

  function allTouched() {
    return lines.every(function (line) { return touched[line.prefix]; });
  }

  /* The inputs a problem is about: its field's, and the points entered instead of its cards
     (a missing hand is marked on "In hand"). */
  function problemInputs(line, problem) {
    if (problem.input) return [form.elements[problem.input]];
    if (!problem.field) return [];
    var names = [problem.field].concat(entry.fields.filter(function (spec) {
      return spec.alternative_to === problem.field;
    }).map(function (spec) { return spec.name; }));
    return names.map(function (name) { return form.elements[line.prefix + "-" + name]; });
  }

  function markField(line, problem) {
    problemInputs(line, problem).forEach(function (input) {
      if (!input || !input.closest) return;
      input.setAttribute("aria-invalid", "true");
      var box = input.closest(".field, .toggle, label.check") || input;
      box.classList.add("has-problem");
    });
    if (entry.keypad && problem.field === entry.keypad.field && line.keypadButton) {
      line.keypadButton.classList.add("has-problem");
    }
  }

  function showNote(line) {
    var note = line.note;
    note.textContent = "";
    if (line.problems && line.problems.length) {
      line.problems.forEach(function (problem) {
        note.appendChild(element("span", problem.warning ? "warnings" : "errors",
          problem.message + " "));
      });
      note.title = note.textContent;
      return;
    }
    note.title = "";
    var tally = tallyOf(line);
    if (tally) note.appendChild(element("span", "", tally));
  }

  /* --- cards and the keypad sheet ------------------------------------------------------------ */

  var keyPoints = {};

  function tokens(text) {
    return String(text || "").split(/[\s,]+/).filter(Boolean);
  }

  /* A card's points as the keypad's keys value it: its rank's key, or its colour's ace. */
  function cardPoints(token) {
    var card = token.toUpperCase().replace(/\uFE0F/g, "");
    if (card in keyPoints) return keyPoints[card];
    if (card === "*" || card === "🃏" || card === "JOKER") return keyPoints.JK;
    var chars = Array.from(card);
    var suit = chars[chars.length - 1];
    var rank = chars.slice(0, -1).join("");
    if (rank === "T") rank = "10";
    if (rank in keyPoints) return keyPoints[rank];
    if (rank === "A") return "SC♠♣♤♧".indexOf(suit) >= 0 ? keyPoints.AB : keyPoints.AR;
    return undefined;
  }

  function tallyOf(line) {
    if (line.reasons && line.reasons.length) return line.reasons.join("; ");
    if (!line.cards) return "";
    var cards = tokens(line.cards.value);
    if (!cards.length) return "";
    var points = 0;
    var unknown = 0;
    cards.forEach(function (card) {
      var value = cardPoints(card);
      if (value === undefined) unknown += 1;
      else points += value;
    });
    return cardsAndPoints(cards.length, points) + (unknown ? " · " + interpolate(
      gettext("%(count)s not read yet"), { count: unknown }, true) : "") + ": " + cards.join(" ");
  }

  function showCards(line) {
    if (!line.keypadButton) return;
    var cards = tokens(line.cards.value);
    var summary = line.keypadButton.querySelector("[data-cards-summary]");
    summary.textContent = cards.length ? cards.length + "·" + cards.reduce(function (sum, card) {
      return sum + (cardPoints(card) || 0);
    }, 0) : gettext("Cards");
    if (line.tally) line.tally.textContent = cards.length ? tallyOf(line) : "";
    if (!line.problems || !line.problems.length) showNote(line);
  }

  var sheet = null;
  var sheetLine = null;
  var times = 1;

  function buildSheet() {
    sheet = element("section", "sheet");
    sheet.hidden = true;
    sheet.setAttribute("role", "dialog");
    sheet.setAttribute("aria-labelledby", "sheet-title");
    var head = element("div", "sheet-head");
    var title = element("h2", "", gettext("Cards"));
    title.id = "sheet-title";
    title.tabIndex = -1;
    head.appendChild(title);
    var count = element("span", "sheet-count");
    count.setAttribute("aria-live", "polite");
    head.appendChild(count);
    sheet.appendChild(head);
    sheet.appendChild(element("p", "sheet-cards"));
    var keys = element("div", "sheet-keys");
    keys.setAttribute("role", "group");
    keys.setAttribute("aria-label", gettext("Card keys"));
    entry.keypad.keys.forEach(function (key) { keys.appendChild(cardKey(key)); });
    [2, 3].forEach(function (n) {
      var key = button("×" + n, n === 2 ? gettext("×2: the next card twice") :
        gettext("×3: the next card three times"), function () {
        setTimes(times === n ? 1 : n);
      }, "op times");
      key.dataset.times = n;
      key.setAttribute("aria-pressed", "false");
      keys.appendChild(key);
    });
    keys.appendChild(button("⌫", gettext("Remove the last card"), function () {
      var cards = tokens(sheetLine.cards.value);
      sheetLine.cards.value = cards.slice(0, -1).join(" ");
      changed(sheetLine.cards);
    }, "op"));
    sheet.appendChild(keys);
    var moves = element("div", "sheet-moves");
    if (entry.exclusive && entry.exclusive.scope === entry.keypad.scope) {
      moves.appendChild(button(gettext("Out"), null, wentOut, "secondary out-key"));
    }
    moves.appendChild(button(gettext("Next ▸"), null, function () { next(); },
      "secondary next-key"));
    moves.appendChild(button(gettext("Done"), null, function () { closeSheet(true); },
      "done-key"));
    sheet.appendChild(moves);
    sheet.addEventListener("keydown", function (event) {
      if (event.key === "Escape") closeSheet(true);
    });
    document.body.appendChild(sheet);
  }

  function cardKey(key) {
    var name = WORDS[key.token] || interpolate(gettext("Add %(card)s"), { card: key.label },
      true);
    var node = button(key.label, name, function () {
      if (node.dataset.held === "yes") { node.dataset.held = ""; return; }
      add(key.token, times);
    }, key.label.length > 3 ? "long" : "");
    var timer = null;
    node.addEventListener("pointerdown", function () {
      node.dataset.held = "";
      timer = setTimeout(function () {
        node.dataset.held = "yes";
        add(key.token, 2); // a long press: a pair
      }, 500);
    });
    ["pointerup", "pointerleave", "pointercancel"].forEach(function (name) {
      node.addEventListener(name, function () { clearTimeout(timer); });
    });
    node.addEventListener("contextmenu", function (event) { event.preventDefault(); });
    return node;
  }

  function setTimes(n) {
    times = n;
    sheet.querySelectorAll("[data-times]").forEach(function (key) {
      key.setAttribute("aria-pressed", String(Number(key.dataset.times) === times));
    });
  }

  function add(token, count) {
    var cards = tokens(sheetLine.cards.value);
    for (var i = 0; i < count; i++) cards.push(token);
    sheetLine.cards.value = cards.join(" ");
    setTimes(1);
    changed(sheetLine.cards);
  }

  function changed(input) {
    input.dispatchEvent(new Event("input", { bubbles: true }));
    showSheet();
  }

  function showSheet() {
    if (!sheet || !sheetLine) return;
    var cards = tokens(sheetLine.cards.value);
    sheet.querySelector("h2").textContent = interpolate(gettext("%(name)s’s cards"),
      { name: sheetLine.name }, true);
    var points = cards.reduce(function (sum, card) { return sum + (cardPoints(card) || 0); }, 0);
    sheet.querySelector(".sheet-count").textContent = cardsAndPoints(cards.length, points);
    sheet.querySelector(".sheet-cards").textContent = cards.join(" ") || gettext("No cards yet.");
  }

  function keypadLines() {
    return lines.filter(function (line) { return line.keypadButton; });
  }

  function openSheet(line, focusKeys) {
    if (!sheet) buildSheet();
    if (sheetLine && sheetLine !== line) leave(sheetLine);
    if (sheetLine) sheetLine.keypadButton.setAttribute("aria-expanded", "false");
    sheetLine = line;
    line.keypadButton.setAttribute("aria-expanded", "true");
    sheet.hidden = false;
    setTimes(1);
    showSheet();
    placeSheet();
    line.element.scrollIntoView({ block: "nearest" });
    if (focusKeys) sheet.querySelector("h2").focus();
  }

  function closeSheet(focusBack) {
    if (!sheet || sheet.hidden) return;
    sheet.hidden = true;
    var line = sheetLine;
    sheetLine = null;
    document.documentElement.style.scrollPaddingBottom = "";
    document.body.style.setProperty("--sheet-height", "0px");
    sizeBar();
    if (line) {
      line.keypadButton.setAttribute("aria-expanded", "false");
      leave(line);
      if (focusBack) line.keypadButton.focus();
    }
  }

  function next() {
    var all = keypadLines();
    var line = all[(all.indexOf(sheetLine) + 1) % all.length];
    openSheet(line, document.activeElement && sheet.contains(document.activeElement));
  }

  function wentOut() {
    var radio = sheetLine.element.querySelector('input[name="went_out"]');
    if (radio) {
      radio.checked = true;
      radio.dispatchEvent(new Event("change", { bubbles: true }));
    }
    next();
  }

  function placeSheet() {
    var bar = form.querySelector("[data-bar]");
    var barHeight = bar.getBoundingClientRect().height;
    sheet.style.bottom = barHeight + "px";
    var height = sheet.getBoundingClientRect().height + barHeight;
    document.documentElement.style.scrollPaddingBottom = height + "px";
    document.body.style.setProperty("--sheet-height", sheet.getBoundingClientRect().height + "px");
    sizeBar();
  }

  function leave(line) {
    if (!touched[line.prefix]) {
      touched[line.prefix] = true;
      later();
    }
  }

  /* --- building the page's enhancements ------------------------------------------------------ */

  function sizeBar() {
    if (!form) return;
    var bar = form.querySelector("[data-bar]");
    var sheetHeight = sheet && !sheet.hidden ? sheet.getBoundingClientRect().height : 0;
    document.body.style.setProperty("--bar-height",
      Math.ceil(bar.getBoundingClientRect().height + sheetHeight + 8) + "px");
    if (sheet && !sheet.hidden) sheet.style.bottom = bar.getBoundingClientRect().height + "px";
  }

  function setUpLines() {
    lines = Array.prototype.map.call(form.querySelectorAll("[data-hand]"), function (node) {
      var prefix = node.dataset.prefix;
      var keypadButton = node.querySelector("[data-keypad-open]");
      var line = {
        element: node,
        prefix: prefix,
        name: node.dataset.player,
        note: node.querySelector("[data-note]"),
        tally: node.querySelector("[data-tally]"),
        keypadButton: keypadButton,
        cards: keypadButton ? form.elements[prefix + "-" + entry.keypad.field] : null,
        problems: null,
        reasons: [],
      };
      if (keypadButton) {
        keypadButton.hidden = false;
        keypadButton.addEventListener("click", function (event) {
          if (sheetLine === line) return closeSheet(true);
          openSheet(line, event.detail === 0);
        });
        showCards(line);
      }
      setUpMore(node);
      node.querySelectorAll("input, select").forEach(function (input) {
        if (input.type !== "radio") input.setAttribute("aria-describedby", line.note.id);
      });
      node.addEventListener("focusout", function (event) {
        if (!node.contains(event.relatedTarget) &&
            !(sheet && sheet.contains(event.relatedTarget))) leave(line);
      });
      return line;
    });
  }

  function setUpMore(node) {
    var toggle = node.querySelector("[data-more-toggle]");
    var more = node.querySelector("[data-more]");
    if (!toggle || !more) return;
    toggle.hidden = false;
    more.hidden = toggle.getAttribute("aria-expanded") !== "true";
    toggle.addEventListener("click", function () {
      more.hidden = !more.hidden;
      toggle.setAttribute("aria-expanded", String(!more.hidden));
    });
  }

  /* Tapping who went out opens the keypad on the next seat without cards, where the game's
     hands are tapped as cards (Kalooki): the others' hands follow with Next (Done, or tapping a
     visible field, closes it for points). Where its line has boxes to fill instead (Hand and
     Foot's books, Parcellus' captures), the first empty box of the side that went out takes
     the focus; a ticked flag on a line (foot played) does the same on its own line. What going
     out implies (`implied_by`: the foot was played, HF5.3) is ticked and held while it does. */
  var lastTouch = 0;

  function setUpWentOut() {
    form.querySelectorAll(".out-toggle, .toggle").forEach(function (toggle) {
      toggle.addEventListener("pointerdown", function () { lastTouch = Date.now(); });
    });
    form.addEventListener("change", function (event) {
      var target = event.target;
      showOut();
      if (Date.now() - lastTouch > 1500) return; // a keyboard's arrows move no focus
      if (target.name === "went_out") return wentOutTapped(target);
      var line = lineOf(target);
      if (target.type === "checkbox" && target.checked && target.closest(".toggle") && line) {
        focusEmptyBox(line);
      }
    });
    showOut();
  }

  function lineOf(node) {
    return lines.find(function (line) { return line.element.contains(node); }) || null;
  }

  function showOut() {
    lines.forEach(function (line) {
      var radio = line.element.querySelector('input[name="went_out"]');
      var out = Boolean(radio && radio.checked);
      line.element.classList.toggle("out", out);
      line.element.querySelectorAll("[data-implied-by] input").forEach(function (input) {
        if (out && !input.disabled) {
          input.dataset.own = input.checked ? "yes" : "";
          input.checked = true;
          input.disabled = true;
        } else if (!out && input.disabled) {
          input.disabled = false;
          input.checked = input.dataset.own === "yes";
        }
      });
    });
  }

  function wentOutTapped(radio) {
    if (sheet && !sheet.hidden) return;
    var all = keypadLines().filter(function (line) {
      return line.keypadButton.hasAttribute("data-keypad-main");
    });
    var from = all.findIndex(function (line) { return line.element.contains(radio); });
    if (from >= 0) {
      for (var step = 1; step < all.length; step++) {
        var next = all[(from + step) % all.length];
        if (!tokens(next.cards.value).length) return openSheet(next, false);
      }
      return;
    }
    var line = lineOf(radio);
    var index = lines.indexOf(line);
    while (index > 0 && lines[index].element.classList.contains("member")) index -= 1;
    if (line) focusEmptyBox(lines[index]);
  }

  function focusEmptyBox(line) {
    var box = Array.prototype.find.call(line.element.querySelectorAll(".box input"),
      function (input) { return input.value === "" && !input.disabled; });
    if (box) box.focus();
  }

  /* Drafts of deals before this one can no longer be saved as new results: let them go. */
  function forgetOldDrafts() {
    if (entry.correcting) return;
    try {
      Object.keys(localStorage).forEach(function (key) {
        var found = key.indexOf(PREFIX + "draft:") === 0 && /^draft:(\d+):a/.exec(
          key.slice(PREFIX.length));
        if (found && Number(found[1]) < entry.game) localStorage.removeItem(key);
      });
    } catch (error) { /* nothing kept, nothing to forget */ }
  }

  function setUpDraft() {
    forgetOldDrafts();
    var kept = load(draftName(), null);
    var who = load("who", "");
    if (who && !form.elements.who.value) form.elements.who.value = who;
    if (!kept || !hasEntry(kept)) return;
    var now = snapshot();
    var same = Object.keys(kept).every(function (name) { return kept[name] === now[name]; });
    if (same) return;
    restore(kept);
    lines.forEach(showCards);
    var note = element("p", "draft-note");
    note.setAttribute("role", "status");
    var title = entry.title.toLowerCase();
    note.appendChild(element("span", "", interpolate(gettext("Your unsaved entry of %(title)s " +
      "is back."), { title: title }, true)));
    note.appendChild(button(gettext("Start again"), interpolate(gettext("Start %(title)s again"),
      { title: title }, true),
      function () {
        var attempt = form.elements.attempt ? Number(form.elements.attempt.value) : 1;
        moveOn({ game: entry.game, attempt: attempt, title: entry.title });
      }, "secondary"));
    form.insertAdjacentElement("afterbegin", note);
  }

  function setUpForm() {
    touched = {};
    showAll = false;
    lastAnswer = null;
    keyPoints = {};
    if (entry.keypad) {
      entry.keypad.keys.forEach(function (key) { keyPoints[key.token] = key.points; });
    }
    setUpLines();
    setUpDraft();
    setUpWentOut();
    form.addEventListener("input", function (event) {
      keepDraft();
      lines.forEach(function (line) {
        if (line.cards && event.target === line.cards) showCards(line);
      });
      later();
    });
    form.addEventListener("change", function () { keepDraft(); later(); });
    form.addEventListener("submit", function (event) {
      var action = event.submitter ? event.submitter.value : "save";
      if (action !== "save") return; // Preview: the server shows it, as without the script
      event.preventDefault();
      clearTimeout(checkTimer); // the result is checked as it is saved: no live check as well
      var save = form.querySelector(".save-button");
      if (save && save.getAttribute("aria-disabled") === "true") return;
      showAll = true;
      if (lastAnswer) showAnswer(lastAnswer);
      queue();
    });
    form.querySelectorAll(".box input").forEach(function (input) {
      input.setAttribute("enterkeyhint", "next");
    });
    form.addEventListener("keydown", function (event) {
      if (event.key !== "Enter" || !event.target.closest(".box")) return;
      event.preventDefault(); // the phone's "next" key: on to the next box, never a submit
      var boxes = Array.prototype.slice.call(form.querySelectorAll(".box input:not(:disabled)"));
      var next = boxes[boxes.indexOf(event.target) + 1];
      if (next) next.focus();
      else event.target.blur();
    });
    form.addEventListener("focusin", function (event) {
      if (sheet && !sheet.hidden && !event.target.closest("[data-keypad-open]") &&
          event.target !== sheetLine.cards) closeSheet(false);
    });
    if (window.ResizeObserver) new ResizeObserver(sizeBar).observe(form.querySelector("[data-bar]"));
    sizeBar();
    document.body.classList.add("enhanced");
    form.dataset.enhanced = "yes";
    if (hasEntry(snapshot())) later();
  }

  /* --- start ----------------------------------------------------------------------------- */

  if (form && entry) setUpForm();
  try {
    var notice = sessionStorage.getItem(PREFIX + "notice");
    if (notice) {
      sessionStorage.removeItem(PREFIX + "notice");
      say(notice);
    }
  } catch (error) { /* no notice to show */ }
  document.addEventListener("visibilitychange", function () {
    if (document.visibilityState === "hidden") keepDraft();
  });
  window.addEventListener("pagehide", keepDraft);
  window.addEventListener("online", function () {
    outbox.forEach(function (item) { if (item.state === "waiting") item.tries = 0; });
    flush();
    if (catchingUp) catchUp();
    if (form && entry) later();
  });
  window.addEventListener("offline", showOutbox);
  /* "Call the director" without leaving the page: the call is sent, the live part shows it. */
  document.addEventListener("submit", function (event) {
    var call = event.target.closest(".call-form");
    if (!call) return;
    event.preventDefault();
    fetch(call.action, {
      method: "POST",
      body: new FormData(call),
      headers: { Accept: "application/json" },
      credentials: "same-origin",
    }).then(function (response) {
      return response.json().catch(function () { return {}; }).then(function (answer) {
        if (!response.ok) {
          say(((answer.errors || [])[0] || {}).message || interpolate(gettext("The call did not " +
            "go: the server answered %(status)s. Find the director in the hall."),
          { status: response.status }, true), "problem");
        }
        return liveNow();
      });
    }).catch(function () {
      say(gettext("The call did not reach the director: no network. Try again, or find the " +
        "director in the hall."), "problem");
    });
  });

  /* The live part asks again at once, as when the page is shown again (static/js/live.js),
     keeping the version it holds: so it also hears of the answer later. */
  function liveNow() {
    document.dispatchEvent(new Event("visibilitychange"));
  }

  /* Leaving the page with a result held asks first: it is kept, but sent only from this page. */
  window.addEventListener("beforeunload", function (event) {
    if (!held().length) return;
    event.preventDefault();
    event.returnValue = "";
  });
  if (channel) {
    channel.onmessage = function () { // another tab of this table changed the outbox
      boxGet("outbox").then(function (kept) {
        outbox = kept || [];
        showOutbox();
      });
    };
  }
  ready.then(function () {
    if (held().length) persist();
    showOutbox();
    flush();
    document.documentElement.dataset.tableReady = "yes";
    if (window.performance && performance.mark) performance.mark("table-ready");
  });
  if ("serviceWorker" in navigator && config.worker) {
    navigator.serviceWorker.register(config.worker, { scope: "/t/" }).catch(function () {
      /* no worker (not a secure origin): the outbox and the draft still keep every result */
    });
  }
})();
