// Copy buttons: <button data-copy="ID" hidden> copies the value of the field #ID.
// The field stays a selectable read-only input, so without JavaScript the link can
// still be selected and copied by hand; the button shows only where it can work. Its
// words come from the page's catalog (templates/_script_words.html).
(function () {
  "use strict";

  function absolute(field) {
    // A pushed invite box carries the link as a path; show and copy the whole address.
    if (field.value && field.value.charAt(0) === "/") {
      field.value = new URL(field.value, document.baseURI).href;
    }
  }

  function prepare(root) {
    root.querySelectorAll("[data-copy]").forEach(function (button) {
      var field = document.getElementById(button.getAttribute("data-copy"));
      if (field) {
        absolute(field);
        button.hidden = false;
      }
    });
  }

  function copied(button, text) {
    button.textContent = text;
    window.setTimeout(function () { button.textContent = gettext("Copy"); }, 2000);
  }

  document.addEventListener("click", function (event) {
    var button = event.target.closest("[data-copy]");
    if (!button) {
      return;
    }
    var field = document.getElementById(button.getAttribute("data-copy"));
    if (!field) {
      return;
    }
    field.select();
    if (navigator.clipboard && window.isSecureContext) {
      navigator.clipboard.writeText(field.value).then(
        function () { copied(button, gettext("Copied")); },
        function () { copied(button, gettext("Press Ctrl+C")); }
      );
    } else {
      copied(button, document.execCommand("copy") ? gettext("Copied") : gettext("Press Ctrl+C"));
    }
  });

  // New content (the page, and every swap or push) may hold a copy button.
  document.addEventListener("htmx:load", function (event) { prepare(event.detail.elt); });
  document.addEventListener("DOMContentLoaded", function () { prepare(document); });
})();
