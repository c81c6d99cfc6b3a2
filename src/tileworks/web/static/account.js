// The account page: log in, create an account, or log out.
"use strict";

const $ = (id) => document.getElementById(id);

function credentials(form) {
  return { username: form.elements.username.value.trim(), password: form.elements.password.value };
}

async function submit(form, url) {
  const error = form.querySelector(".error");
  error.textContent = "";
  const response = await fetch(url, {
    method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(credentials(form)),
  });
  const body = await response.json();
  if (!response.ok) { error.textContent = body.error; return; }
  const back = new URLSearchParams(location.search).get("next");
  location.href = back && back.startsWith("/") && !back.startsWith("//") ? back : "/players/" + encodeURIComponent(body.username);
}

$("login").addEventListener("submit", (event) => { event.preventDefault(); submit(event.target, "/api/session"); });
$("register").addEventListener("submit", (event) => { event.preventDefault(); submit(event.target, "/api/accounts"); });
$("logout").addEventListener("click", async () => {
  await fetch("/api/session", { method: "DELETE" });
  location.href = "/";
});

SESSION.then((username) => {
  if (!username) return;
  $("signed-out").hidden = true;
  $("signed-in").hidden = false;
  $("who").textContent = _("You are logged in as {name}.", { name: username });
});
