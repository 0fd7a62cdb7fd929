// The referee's page's service worker: the page's own files kept on the phone, so that a
// reload while the network is away still opens the page (and its entries, which live in
// IndexedDB). Served where browsers allow one: HTTPS, or this machine (localhost).
// The API is never cached: an entry's answer is the server's alone.
"use strict";

const SHELL = "referee-shell-v1";
const FILES = ["/referee", "/referee/app.js", "/referee/app.css"];

self.addEventListener("install", (event) => {
  event.waitUntil(caches.open(SHELL).then((cache) => cache.addAll(FILES)).then(() => self.skipWaiting()));
});

self.addEventListener("activate", (event) => {
  event.waitUntil(self.clients.claim());
});

self.addEventListener("fetch", (event) => {
  const url = new URL(event.request.url);
  if (event.request.method !== "GET" || url.origin !== location.origin || url.pathname.startsWith("/referee/api/")) return;
  if (url.pathname.startsWith("/referee/picture/")) { // a card's picture never changes
    event.respondWith(caches.open(SHELL).then(async (cache) => {
      const kept = await cache.match(event.request);
      if (kept) return kept;
      const fresh = await fetch(event.request);
      if (fresh.ok) cache.put(event.request, fresh.clone());
      return fresh;
    }));
    return;
  }
  const shell = url.pathname === "/referee" ? "/referee" : url.pathname;
  if (!FILES.includes(shell)) return;
  event.respondWith(fetch(event.request).then((fresh) => { // the newest when the server answers
    if (fresh.ok) {
      const copy = fresh.clone();
      caches.open(SHELL).then((cache) => cache.put(shell, copy));
    }
    return fresh;
  }).catch(() => caches.match(shell)));
});
