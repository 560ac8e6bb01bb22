"use strict";
// Instant search over the page's own terms: accent- and case-insensitive, and forgiving one typo (a letter
// changed, added, dropped, or two swapped) in names of four letters or more. No network, no library.
(function () {
  const input = document.getElementById("_buscar");
  const status = document.getElementById("_resultado");
  const form = document.getElementById("_busqueda");
  const articles = Array.from(document.querySelectorAll("article.termino"));
  const sections = Array.from(document.querySelectorAll("section.categoria"));
  const index = document.querySelector("section.indice");
  const normalize = (text) =>
    text.normalize("NFD").replace(/\p{M}/gu, "").toLowerCase().replace(/[^\p{L}\p{N}]+/gu, " ").trim();
  const compact = (text) => text.replace(/ /g, "");
  const entries = articles.map((article) => {
    const names = article.dataset.nombres.split("\n").map(normalize);
    // Every sense's definition (a name with several senses has one .definicion each).
    const definition = normalize(
      Array.from(article.querySelectorAll(".definicion"), (part) => part.textContent).join(" ")
    );
    return { article, names, packed: names.map(compact), definition, section: article.closest("section.categoria") };
  });

  // Whether two texts are at most one edit apart (optimal string alignment), in linear time.
  function oneEdit(a, b) {
    if (a === b) return true;
    if (Math.abs(a.length - b.length) > 1) return false;
    let i = 0;
    while (i < a.length && i < b.length && a[i] === b[i]) i++;
    if (a.length === b.length) {
      return a.slice(i + 1) === b.slice(i + 1) ||
        (a[i] === b[i + 1] && a[i + 1] === b[i] && a.slice(i + 2) === b.slice(i + 2));
    }
    return a.length > b.length ? a.slice(i + 1) === b.slice(i) : a.slice(i) === b.slice(i + 1);
  }

  function matches(entry, query, packed) {
    if (entry.names.some((name) => name.includes(query))) return true;
    if (packed.length >= 4) {
      for (const name of entry.packed) {
        for (const cut of [packed.length - 1, packed.length, packed.length + 1]) {
          if (cut <= name.length && oneEdit(packed, name.slice(0, cut))) return true;
        }
      }
    }
    return query.length >= 3 && entry.definition.includes(query);
  }

  function show() {
    const query = normalize(input.value);
    let found = 0;
    const shown = new Set();  // the categories with a term shown
    // (an element is touched only when it changes: each change makes the browser lay the page out again)
    for (const entry of entries) {
      const visible = query === "" || matches(entry, query, compact(query));
      if (entry.article.hidden === visible) entry.article.hidden = !visible;
      if (visible) { found++; shown.add(entry.section); }
    }
    for (const section of sections) {
      if (section.hidden === shown.has(section)) section.hidden = !shown.has(section);
    }
    if (index.hidden !== (query !== "")) index.hidden = query !== "";
    // The page's sentences, in its language, from the status line's data attributes; each filled in by a
    // function, so that a "$&" typed in the box is not read as a replacement pattern.
    const say = status.dataset;
    const typed = input.value.trim();
    const words = found === 1 ? say.terms_1 : say.terms.replace("{count}", () => found);
    status.textContent = query === "" ? words : found === 0
      ? say.none.replace("{query}", () => typed)
      : say.found.replace("{terms}", () => words).replace("{query}", () => typed);
  }

  input.addEventListener("input", show);
  input.addEventListener("search", show);  // the box's own clear button
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const first = articles.find((article) => !article.hidden);
    if (first) first.querySelector("h3 a").focus();
  });
  input.addEventListener("keydown", (event) => {
    if (event.key === "Escape") { input.value = ""; show(); }
  });
  document.addEventListener("click", (event) => {  // a link to a term hidden by the search shows it again
    const link = event.target.closest('a[href^="#"]');
    const target = link && document.getElementById(decodeURIComponent(link.hash.slice(1)));
    if (target && target.closest("[hidden]")) { input.value = ""; show(); }
  });
})();
