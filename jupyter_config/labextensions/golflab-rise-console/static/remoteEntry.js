// golflab-rise-console: hand-written (no build step), loaded as a JupyterLab federated extension.
//
// jupyterlab-rise 0.43.1 runs its slideshow as its own app, whose shared modules lack
// @jupyterlab/console. The ipywidgets 8 manager (@jupyter-widgets/jupyterlab-manager 5.x, from
// jupyterlab_widgets 3.x) imports it without a fallback, so loading it there fails ("Shared module
// @jupyterlab/console doesn't exist in shared scope default") and every widget on a slide shows as
// its text repr (jupyterlab-contrib/rise#126, #119; ipywidgets 7's manager did not import it).
// The manager uses one name from that module: the token IConsoleTracker, an optional
// dependency. When the app has no @jupyterlab/console (never in JupyterLab itself), init puts
// one in the shared scope that holds just that token; no plugin provides it, so the manager
// gets null for it and loads as in a notebook without a console.
(function () {
  'use strict';
  var NAME = 'golflab-rise-console';
  var CONSOLE = '@jupyterlab/console';

  function newest(versions) {
    // The highest version key of a shared module ("4.3.4" > "4.2.10" > "4.0.0").
    var parse = function (v) { return v.split(/[.+-]/).map(function (p) { return parseInt(p, 10) || 0; }); };
    return Object.keys(versions || {}).sort(function (a, b) {
      var x = parse(a), y = parse(b);
      for (var i = 0; i < Math.max(x.length, y.length); i++) {
        if ((x[i] || 0) !== (y[i] || 0)) { return (x[i] || 0) - (y[i] || 0); }
      }
      return 0;
    }).pop();
  }

  function load(scope, module) {
    // A shared module's exports, the way webpack's consumers get them.
    var entry = scope[module][newest(scope[module])];
    entry.loaded = 1;
    return Promise.resolve(entry.get()).then(function (factory) { return factory(); });
  }

  function init(scope) {
    if (scope[CONSOLE] || !scope['@lumino/coreutils']) {
      return;  // the app has a console (JupyterLab) or is no JupyterLab app
    }
    // Versioned as the app's own JupyterLab packages, so it satisfies the manager's ^4 range.
    var version = newest(scope['@jupyterlab/application']) || '4.0.0';
    var factory = null;  // one module, however often it is asked for
    var versions = {};
    versions[version] = {
      from: NAME,
      eager: false,
      get: function () {
        factory = factory || load(scope, '@lumino/coreutils').then(function (lumino) {
          var exports = {
            IConsoleTracker: new lumino.Token(CONSOLE + ':IConsoleTracker',
              'A console tracker token (none in this app: it has no console).')
          };
          return function () { return exports; };
        });
        return factory;
      }
    };
    scope[CONSOLE] = versions;
  }

  function get(module) {
    return Promise.reject(new Error(NAME + ' exposes no module (asked for ' + module + ')'));
  }

  window._JUPYTERLAB = window._JUPYTERLAB || {};
  window._JUPYTERLAB[NAME] = { init: init, get: get };
})();
