/* The table page's result form, quicker on a phone (templates/scoring/table_form.html).

   - A card keypad per hand: joker, black ace, K Q J 10, 9 … 2, red ace. Suits do not change a
     card's points (R2), so a key adds a representative card (KH, 9H, AS, AH …), taking another
     suit once three copies of it are on the table, so the hands stay within one deck (R1.2).
   - A live count of each hand's cards and points (R2), read as the server reads R11 notation.
   - A live check of the whole result by the rules API (POST /api/rules/game: open, no CSRF):
     every player's score, and problems next to their fields, as the Preview button shows them.

   Without this script the form works the same through Preview and Save; the server checks
   everything again when saving. */
(function () {
  "use strict";

  var form = document.querySelector("form[data-entry-form]");
  var configNode = document.getElementById("table-entry-config");
  if (!form || !configNode) return;
  var config = JSON.parse(configNode.textContent);
  var values = config.values;

  var JOKER_WORDS = ["JK", "*", "🃏", "JOKER"];
  var SUITS = { S: "S", H: "H", D: "D", C: "C", "♠": "S", "♥": "H", "♦": "D", "♣": "C",
    "♤": "S", "♡": "H", "♢": "D", "♧": "C" };
  var RANK_FIELDS = { K: "king", Q: "queen", J: "jack", "10": "ten", "9": "nine", "8": "eight",
    "7": "seven", "6": "six", "5": "five", "4": "four", "3": "three", "2": "two" };
  var KEYS = [
    { text: "JK", name: "a joker", cards: ["JK"] },
    { text: "A♠", name: "a black ace", cards: ["AS", "AC"] },
    { text: "K", name: "a king" }, { text: "Q", name: "a queen" }, { text: "J", name: "a jack" },
    { text: "10", name: "a ten" }, { text: "9", name: "a nine" }, { text: "8", name: "an eight" },
    { text: "7", name: "a seven" }, { text: "6", name: "a six" }, { text: "5", name: "a five" },
    { text: "4", name: "a four" }, { text: "3", name: "a three" }, { text: "2", name: "a two" },
    { text: "A♥", name: "a red ace", cards: ["AH", "AD"] },
  ];
  KEYS.forEach(function (key) {
    key.cards = key.cards || ["H", "D", "C", "S"].map(function (suit) { return key.text + suit; });
  });

  /* Reading cards (R11): a card as "rank+suit" text ("10H", "JK"), or null if unreadable. */
  function readToken(token) {
    var text = token.toUpperCase().replace(/\uFE0F/g, "");
    if (JOKER_WORDS.indexOf(text) >= 0) return "JK";
    var chars = Array.from(text);
    var suit = SUITS[chars[chars.length - 1]];
    var rank = chars.slice(0, -1).join("");
    if (!suit) {
      suit = SUITS[chars[0]];
      rank = chars.slice(1).join("");
    }
    if (rank === "T") rank = "10";
    if (!suit || !(rank === "A" || rank in RANK_FIELDS)) return null;
    return rank + suit;
  }

  function tokens(text) {
    return text.split(/[\s,]+/).filter(Boolean);
  }

  function points(card) {
    if (card === "JK") return values.joker;
    var rank = card.slice(0, -1);
    var suit = card.slice(-1);
    if (rank === "A") return suit === "S" || suit === "C" ? values.black_ace : values.red_ace;
    return values[RANK_FIELDS[rank]];
  }

  /* A hand's cards read, or the first token that is not a card. */
  function readHand(text) {
    var cards = [];
    var words = tokens(text);
    for (var i = 0; i < words.length; i++) {
      var card = readToken(words[i]);
      if (!card) return { bad: words[i], position: i + 1 };
      cards.push(card);
    }
    return { cards: cards };
  }

  var hands = Array.prototype.map.call(form.querySelectorAll("[data-hand]"), function (fieldset) {
    var prefix = fieldset.dataset.prefix + "-";
    var input = function (name) { return fieldset.querySelector('[name="' + prefix + name + '"]'); };
    return {
      fieldset: fieldset,
      player: fieldset.dataset.player,
      wentOut: fieldset.querySelector('input[name="went_out"]'),
      cards: input("cards"),
      points: input("points"),
      calls: input("calls"),
      failed: input("failed_come_downs"),
      overcall: input("overcall_penalty"),
      tally: fieldset.querySelector("[data-tally]"),
      score: fieldset.querySelector("[data-score]"),
      why: fieldset.querySelector("[data-why]"),
      problems: {
        cards: fieldset.querySelector('[data-problems="cards"]'),
        other: fieldset.querySelector('[data-problems="other"]'),
      },
    };
  });

  /* How many of each card the form's hands hold between them. */
  function tableCounts() {
    var counts = {};
    hands.forEach(function (hand) {
      (readHand(hand.cards.value).cards || []).forEach(function (card) {
        counts[card] = (counts[card] || 0) + 1;
      });
    });
    return counts;
  }

  function pick(key) {
    var counts = tableCounts();
    for (var i = 0; i < key.cards.length; i++) {
      var card = key.cards[i];
      var limit = card === "JK" ? config.jokers : config.max_copies;
      if ((counts[card] || 0) < limit) return card;
    }
    return key.cards[0]; // the deck is exhausted: let the check say so (R10.3)
  }

  function changed(input) {
    input.dispatchEvent(new Event("input", { bubbles: true }));
  }

  function button(text, label, onClick) {
    var element = document.createElement("button");
    element.type = "button";
    element.textContent = text;
    if (label) element.setAttribute("aria-label", label);
    element.addEventListener("click", onClick);
    return element;
  }

  function addKeypad(hand) {
    var pad = document.createElement("div");
    pad.className = "keypad";
    pad.hidden = true;
    pad.setAttribute("role", "group");
    pad.setAttribute("aria-label", "Card keypad for " + hand.player);
    KEYS.forEach(function (key) {
      pad.appendChild(button(key.text, "Add " + key.name, function () {
        hand.cards.value = (hand.cards.value.trim() + " " + pick(key)).trim();
        changed(hand.cards);
      }));
    });
    pad.appendChild(button("⌫", "Remove the last card", function () {
      hand.cards.value = tokens(hand.cards.value).slice(0, -1).join(" ");
      changed(hand.cards);
    }));
    var toggle = button("Keypad", null, function () {
      pad.hidden = !pad.hidden;
      toggle.setAttribute("aria-expanded", String(!pad.hidden));
    });
    toggle.className = "keypad-toggle secondary";
    toggle.setAttribute("aria-expanded", "false");
    toggle.setAttribute("aria-label", "Keypad for " + hand.player + "'s cards");
    hand.cards.insertAdjacentElement("afterend", pad);
    hand.cards.insertAdjacentElement("afterend", toggle);
  }

  function showTally(hand) {
    var text = hand.cards.value.trim();
    if (hand.wentOut.checked && !text) {
      hand.tally.textContent = "went out: no cards";
    } else if (!text) {
      hand.tally.textContent = "";
    } else {
      var read = readHand(text);
      if (read.bad) {
        hand.tally.textContent = "card " + read.position + ", “" + read.bad + "”, is not a card (R11)";
      } else {
        var total = read.cards.reduce(function (sum, card) { return sum + points(card); }, 0);
        var n = read.cards.length;
        hand.tally.textContent = n + " card" + (n === 1 ? "" : "s") + " · " + total + " point" +
          (total === 1 ? "" : "s");
      }
    }
    hand.fieldset.classList.toggle("out", hand.wentOut.checked);
  }

  /* The live check, through the rules API. */
  function number(input) {
    return input && input.value.trim() !== "" ? Number(input.value) : null;
  }

  function checked(name) {
    var box = form.querySelector('[name="' + name + '"]');
    return Boolean(box && box.checked);
  }

  function body() {
    return {
      game: Number(form.querySelector('[name="game"]').value),
      down_and_out: checked("down_and_out"),
      void: checked("void"),
      ruleset: config.ruleset,
      hands: hands.map(function (hand) {
        var cards = hand.cards.value.trim();
        var out = hand.wentOut.checked;
        return {
          player: hand.player,
          went_out: out,
          cards: cards || out ? cards : null,
          points: number(hand.points),
          calls: number(hand.calls),
          failed_come_downs: number(hand.failed) || 0,
          overcall_penalty: hand.overcall.checked,
        };
      }),
    };
  }

  function fill(list, problems) {
    list.textContent = "";
    problems.forEach(function (problem) {
      var item = document.createElement("li");
      item.className = problem.warning ? "warnings" : "errors";
      item.textContent = problem.message;
      list.appendChild(item);
    });
    list.hidden = problems.length === 0 && list.dataset.problems === "game";
  }

  function fieldOf(problem, hand) {
    var name = config.field_by_rule[problem.rule] || "";
    if (name === "cards" && problem.rule === "R10.2" && !hand.cards.value.trim()) return "points";
    return name;
  }

  function showProblems(errors, warnings) {
    var byHand = new Map(hands.map(function (hand) { return [hand.player, { cards: [], other: [] }]; }));
    var game = [];
    errors.concat(warnings).forEach(function (problem) {
      var lists = byHand.get(problem.player);
      var hand = hands.find(function (h) { return h.player === problem.player; });
      if (!lists) {
        if (!problem.warning) game.push(problem);
        return;
      }
      var name = fieldOf(problem, hand);
      (name === "cards" ? lists.cards : lists.other).push(problem);
      var field = hand.fieldset.querySelector(".field." + (name || "none"));
      if (field) field.classList.add("has-problem");
    });
    hands.forEach(function (hand) {
      var lists = byHand.get(hand.player);
      fill(hand.problems.cards, lists.cards);
      fill(hand.problems.other, lists.other);
    });
    fill(form.querySelector('[data-problems="game"]'), game);
    var box = form.querySelector("[data-warnings-box]");
    fill(box.querySelector("[data-warnings]"), warnings);
    box.hidden = warnings.length === 0;
  }

  function showScores(scores) {
    var byPlayer = new Map((scores || []).map(function (score) { return [score.player, score]; }));
    hands.forEach(function (hand) {
      var score = byPlayer.get(hand.player);
      hand.score.textContent = score ? String(score.total) : "";
      hand.why.textContent = score ? score.reasons.join("; ") : "";
    });
  }

  function showAnswer(answer) {
    var errors = (answer.errors || []).map(function (p) { return Object.assign({}, p); });
    var warnings = (answer.warnings || []).map(function (p) {
      return Object.assign({ warning: true }, p);
    });
    form.querySelectorAll(".has-problem").forEach(function (field) {
      field.classList.remove("has-problem");
    });
    showProblems(errors, warnings);
    showScores(answer.scores);
    var live = form.querySelector("[data-live]");
    live.hidden = false;
    if (answer.scores) {
      live.textContent = "Live check: scores shown next to each name" +
        (warnings.length ? "; confirm the warnings to save." : ".");
    } else {
      live.textContent = "Live check: " + errors.length + " problem" +
        (errors.length === 1 ? "" : "s") + " to fix before saving.";
    }
  }

  var timer = null;
  var asked = 0;

  function check() {
    if (!config.ruleset) return; // a ruleset of the tournament's own: Preview asks the server
    var ask = ++asked;
    fetch(config.api, {
      method: "POST",
      headers: { "Content-Type": "application/json", Accept: "application/json" },
      body: JSON.stringify(body()),
      credentials: "omit",
    })
      .then(function (response) { return response.json(); })
      .then(function (answer) {
        if (ask === asked) showAnswer(answer);
      })
      .catch(function () {
        var live = form.querySelector("[data-live]");
        live.hidden = false;
        live.textContent = "No live check (no connection?): Preview asks the server.";
      });
  }

  function later() {
    clearTimeout(timer);
    timer = setTimeout(check, 350);
  }

  hands.forEach(function (hand) {
    addKeypad(hand);
    showTally(hand);
  });
  form.addEventListener("input", function () {
    hands.forEach(showTally);
    later();
  });
  form.addEventListener("change", function () {
    hands.forEach(showTally);
    later();
  });
  form.dataset.enhanced = "yes"; // the keypad and live check are ready
})();
