// The referee's page's service worker: the page's own files kept on the phone, so that a
// reload while the network is away still opens the page (and its entries, which live in
// IndexedDB). Served where browsers allow one: HTTPS, or this machine (localhost).
// The API is never cached: an entry's answer is the server's alone.
"use strict";

const SHELL = "referee-shell-v1";
const PICTURES = "referee-pictures-v2";
const FILES = ["/referee", "/referee/app.js", "/referee/app.css"];
// a card's picture at an address naming how the pictures are drawn and their language
// (/referee/picture/EDITION/LANG/KEY.svg) never changes: kept for good. One at the older
// address of a key alone is the browser's language as drawn then: asked again when online.
const KEPT_PICTURE = /^\/referee\/picture\/[^/]+\/[^/]+\/[^/]+\.svg$/;

self.addEventListener("install", (event) => {
  event.waitUntil(caches.open(SHELL).then((cache) => cache.addAll(FILES)).then(() => self.skipWaiting()));
});

self.addEventListener("activate", (event) => { // the pictures of older editions go with their cache
  event.waitUntil(caches.keys()
    .then((names) => Promise.all(names.filter((name) => name !== SHELL && name !== PICTURES).map((name) => caches.delete(name))))
    .then(() => caches.open(SHELL))
    .then((shell) => shell.keys().then((requests) => Promise.all(requests
      .filter((request) => new URL(request.url).pathname.startsWith("/referee/picture/"))
      .map((request) => shell.delete(request)))))
    .then(() => self.clients.claim()));
});

self.addEventListener("fetch", (event) => {
  const url = new URL(event.request.url);
  if (event.request.method !== "GET" || url.origin !== location.origin || url.pathname.startsWith("/referee/api/")) return;
  if (KEPT_PICTURE.test(url.pathname)) {
    event.respondWith(caches.open(PICTURES).then(async (cache) => {
      const kept = await cache.match(event.request);
      if (kept) return kept;
      const fresh = await fetch(event.request);
      if (fresh.ok) cache.put(event.request, fresh.clone());
      return fresh;
    }));
    return;
  }
  if (url.pathname.startsWith("/referee/picture/")) { // the newest when the server answers
    event.respondWith(fetch(event.request).then((fresh) => {
      if (fresh.ok) {
        const copy = fresh.clone();
        caches.open(PICTURES).then((cache) => cache.put(event.request, copy));
      }
      return fresh;
    }).catch(() => caches.match(event.request)));
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
