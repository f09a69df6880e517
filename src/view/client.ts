/**
 * The viewer's one script, shipped as written (no build step): review forms post JSON to the server and
 * reload the page; keys make a review session keyboard-only (`n` next unreviewed, `/` search, `c`/`f`/`u`
 * a flip verdict or `c`/`m`/`u` a sampled one on the first open form, Ctrl+Enter save).
 */
export const CLIENT_SCRIPT = `"use strict";
(() => {
  const fieldsOf = (form) => {
    const out = {};
    for (const [k, v] of new FormData(form).entries()) out[k] = String(v);
    return out;
  };
  const post = async (form, url, body) => {
    const error = form.querySelector(".error");
    if (error) error.textContent = "";
    let res;
    try {
      res = await fetch(url, {
        method: "POST",
        headers: { "content-type": "application/json" },
        credentials: "same-origin",
        body: JSON.stringify(body),
      });
    } catch (e) {
      if (error) error.textContent = "the server did not answer: " + e;
      return;
    }
    const answer = await res.json().catch(() => ({ error: res.status + " " + res.statusText }));
    if (!res.ok) {
      if (error) error.textContent = answer.error || res.statusText;
      return;
    }
    location.reload();
  };
  document.addEventListener("submit", (e) => {
    const form = e.target;
    if (!(form instanceof HTMLFormElement) || !form.dataset.api) return;
    e.preventDefault();
    post(form, form.dataset.api, fieldsOf(form));
  });
  document.addEventListener("click", (e) => {
    const button = e.target instanceof Element ? e.target.closest("button[data-withdraw]") : null;
    if (!button) return;
    const form = button.closest("form");
    const f = fieldsOf(form);
    const key = button.dataset.withdraw.includes("sample")
      ? { fingerprint: f.fingerprint, comparison: f.comparison }
      : { fingerprint: f.fingerprint, grader: f.grader, kind: f.kind, reference: f.reference };
    post(form, button.dataset.withdraw, key);
  });
  const KEYS = {
    "/api/review": { c: "confirmed", f: "false_positive", u: "unclear" },
    "/api/sample": { c: "clean", m: "missed", u: "unclear" },
  };
  const openForm = () => {
    const forms = [...document.querySelectorAll("form[data-api='/api/review'], form[data-api='/api/sample']")];
    return forms.find((f) => !f.querySelector("input[name=verdict]:checked")) || forms[0];
  };
  document.addEventListener("keydown", (e) => {
    const t = e.target;
    if (e.key === "Enter" && (e.ctrlKey || e.metaKey) && t instanceof Element) {
      const form = t.closest("form[data-api]");
      if (form) {
        e.preventDefault();
        form.requestSubmit();
      }
      return;
    }
    const typing = t instanceof HTMLElement && (t.isContentEditable || ["INPUT", "TEXTAREA", "SELECT"].includes(t.tagName));
    if (typing || e.ctrlKey || e.metaKey || e.altKey) return;
    if (e.key === "n" && document.body.dataset.next) {
      location.href = document.body.dataset.next;
    } else if (e.key === "/") {
      e.preventDefault();
      document.getElementById("search")?.focus();
    } else {
      const form = openForm();
      const verdict = form && KEYS[form.dataset.api][e.key];
      if (!verdict) return;
      e.preventDefault();
      const radio = form.querySelector("input[name=verdict][value=" + verdict + "]");
      if (radio) radio.checked = true;
      form.querySelector("textarea[name=reason]")?.focus();
    }
  });
})();
`;
