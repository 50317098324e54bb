// A page that POSTs a file's text, pasted into #record or opened with #file, to its API route
// and shows the answer (luck.html, position.html): the empty text, a file that is not UTF-8
// and the route's refusal each said in #error; `#sample` loads the page's sample first.
"use strict";
function postingPage({ url, button, sample, empty, busy, notText, show, ready }) {
  const get = (id) => document.getElementById(id);
  const fail = (message) => {
    get("status").textContent = "";
    get("error").textContent = message;
    get("error").hidden = false;
    get("result").hidden = true;
  };
  async function send() {
    const text = get("record").value;
    get("error").hidden = true;
    if (!text.trim()) {
      get("error").textContent = empty;
      get("error").hidden = false;
      return;
    }
    get("status").textContent = busy;
    try {
      const response = await fetch(api(url), { method: "POST", body: text,
        headers: { "Content-Type": "text/plain; charset=utf-8" } });
      const answer = await response.json();
      if (!response.ok) throw new Error(answer.error || response.statusText);
      await ready;
      show(answer);
    } catch (e) {
      fail(e.message);
    }
  }
  get(button).addEventListener("click", send);
  get("sample").addEventListener("click", async () => {
    get("record").value = await (await fetch(sample)).text();
    send();
  });
  get("file").addEventListener("change", async () => {
    const file = get("file").files[0];
    if (!file) return;
    try {  // a file that is not UTF-8 text is said so, never shown as replacement characters
      get("record").value = new TextDecoder("utf-8", { fatal: true }).decode(await file.arrayBuffer());
    } catch {
      get("record").value = "";
      fail(notText(file.name));
      return;
    }
    send();
  });
}
