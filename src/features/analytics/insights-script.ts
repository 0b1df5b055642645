/**
 * The page-view script served at /api/insights.js, as plain ES5 text (it runs before and beside the app, so it
 * is not part of the bundle). It counts a view on load and on every client-side navigation, and reports the time
 * the page was visible when it is hidden or left. It stores nothing and sends nothing under Do-Not-Track or Global
 * Privacy Control, or while the page is only being prerendered.
 */
export const insightsScript = `(function () {
  var nav = navigator, doc = document, endpoint = '/api/insights';
  if (nav.doNotTrack === '1' || window.doNotTrack === '1' || nav.globalPrivacyControl === true) return;
  // A reload or a step back in history is not a new arrival: only a fresh navigation has a referrer worth counting.
  var navigation = performance.getEntriesByType && performance.getEntriesByType('navigation')[0];
  var viewId = null, viewUrl = null, path = null, visibleMs = 0, shownAt = 0, entry = !navigation || navigation.type === 'navigate';

  function send(body, beacon) {
    var data = JSON.stringify(body);
    if (beacon && nav.sendBeacon && nav.sendBeacon(endpoint, data)) return;
    fetch(endpoint, { method: 'POST', body: data, keepalive: true, credentials: 'omit' })['catch'](function () {});
  }
  function newId() {
    return (Math.random().toString(36).slice(2, 10) + Date.now().toString(36)).slice(0, 20);
  }
  function reportTime(beacon) {
    if (!viewId) return;
    if (shownAt) { visibleMs += Date.now() - shownAt; shownAt = doc.visibilityState === 'visible' ? Date.now() : 0; }
    if (visibleMs > 0) send({ type: 'leave', id: viewId, url: viewUrl, durationMs: Math.round(visibleMs) }, beacon);
    visibleMs = 0;
  }
  function view() {
    if (location.pathname === path) return;
    // The router has already changed the address: the time belongs to the page being left (viewUrl), not this one.
    reportTime(false);
    path = location.pathname;
    viewId = newId();
    viewUrl = location.href;
    visibleMs = 0;
    shownAt = doc.visibilityState === 'visible' ? Date.now() : 0;
    send({
      type: 'pageview', id: viewId, url: location.href, entry: entry,
      referrer: entry ? doc.referrer : '', language: nav.language, screenWidth: screen.width
    });
    entry = false;
  }
  function start() {
    ['pushState', 'replaceState'].forEach(function (name) {
      var original = history[name];
      history[name] = function () {
        var result = original.apply(this, arguments);
        view();
        return result;
      };
    });
    addEventListener('popstate', view);
    doc.addEventListener('visibilitychange', function () {
      if (doc.visibilityState === 'hidden') reportTime(true);
      else shownAt = Date.now();
    });
    addEventListener('pagehide', function () { reportTime(true); });
    view();
  }
  if (doc.prerendering) doc.addEventListener('prerenderingchange', start, { once: true });
  else start();
})();
`
