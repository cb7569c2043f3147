// docpipe's passkeys: the WebAuthn ceremonies of the security page (<passkey-add>) and the log-in
// page (<passkey-login>), on @simplewebauthn/browser (served by docpipe as /assets/webauthn.js,
// loaded before this file). Both elements come from the server with their controls hidden; they
// show them only where the browser can make and use passkeys, so that a page without script
// (or without WebAuthn) offers the password alone. Texts come from data- attributes in the
// page's language; the server's answers carry their own.
'use strict';

/** The page's CSRF token, as htmx sends it (the body's hx-headers). */
function csrfToken() {
  try {
    return JSON.parse(document.body.getAttribute('hx-headers') || '{}')['X-CSRF-Token'] || '';
  } catch {
    return '';
  }
}

/** POSTs JSON to this server; answers the parsed reply and whether it was 2xx. */
async function postJson(url, body) {
  const response = await fetch(url, {
    method: 'POST',
    credentials: 'same-origin',
    headers: { 'Content-Type': 'application/json', 'X-CSRF-Token': csrfToken() },
    body: JSON.stringify(body),
  });
  let data = {};
  try {
    data = await response.json();
  } catch {
    // A reply that is not JSON (a proxy's error page): the element's own text is shown.
  }
  return { ok: response.ok, data };
}

function webauthnReady() {
  return Boolean(window.PublicKeyCredential && window.SimpleWebAuthnBrowser);
}

/** A browser refusal that means the person cancelled (or the browser's timeout ran out). */
function cancelled(error) {
  return error && (error.name === 'NotAllowedError' || error.name === 'AbortError');
}

/**
 * <passkey-add data-options data-verify data-failed data-cancelled data-unsupported>: a form
 * with the passkey's name; sending it asks the server for options, runs the browser's
 * registration, sends the result, and follows the server's redirect to the security page.
 */
class PasskeyAdd extends HTMLElement {
  connectedCallback() {
    const form = this.querySelector('form');
    const note = this.querySelector('.passkey-noscript');
    const status = this.querySelector('.passkey-status');
    if (!form || !status) return;
    if (!webauthnReady()) {
      if (note) note.textContent = this.dataset.unsupported || note.textContent;
      return;
    }
    if (note) note.remove();
    form.hidden = false;
    form.addEventListener('submit', async (event) => {
      event.preventDefault();
      const button = form.querySelector('button[type="submit"]');
      const name = form.querySelector('input[name="name"]');
      status.textContent = this.dataset.working || '';
      if (button) button.disabled = true;
      try {
        const begun = await postJson(this.dataset.options, { name: name ? name.value : '' });
        if (!begun.ok) throw new Error(begun.data.error || this.dataset.failed);
        let response;
        try {
          response = await window.SimpleWebAuthnBrowser.startRegistration({
            optionsJSON: begun.data.options,
          });
        } catch (error) {
          throw new Error(cancelled(error) ? this.dataset.cancelled : this.dataset.failed);
        }
        const done = await postJson(this.dataset.verify, { response });
        if (!done.ok || !done.data.redirect)
          throw new Error(done.data.error || this.dataset.failed);
        window.location.assign(done.data.redirect);
      } catch (error) {
        status.textContent = error.message || this.dataset.failed || '';
        if (button) button.disabled = false;
        if (name) name.focus();
      }
    });
  }
}
customElements.define('passkey-add', PasskeyAdd);

/**
 * <passkey-login data-options data-verify data-next data-failed data-cancelled>: the log-in
 * page's "Log in with a passkey" button: no address is asked for (the authenticator offers its
 * passkeys for this site); the server answers where to go once it has checked the assertion.
 */
class PasskeyLogin extends HTMLElement {
  connectedCallback() {
    const box = this.querySelector('.passkey-login');
    const button = this.querySelector('button');
    const status = this.querySelector('.passkey-status');
    if (!box || !button || !status || !webauthnReady()) return;
    box.hidden = false;
    button.addEventListener('click', async () => {
      button.disabled = true;
      status.textContent = '';
      try {
        const begun = await postJson(this.dataset.options, {});
        if (!begun.ok) throw new Error(begun.data.error || this.dataset.failed);
        let response;
        try {
          response = await window.SimpleWebAuthnBrowser.startAuthentication({
            optionsJSON: begun.data.options,
          });
        } catch (error) {
          throw new Error(cancelled(error) ? this.dataset.cancelled : this.dataset.failed);
        }
        const done = await postJson(this.dataset.verify, {
          response,
          next: this.dataset.next || '',
        });
        if (!done.ok || !done.data.redirect)
          throw new Error(done.data.error || this.dataset.failed);
        window.location.assign(done.data.redirect);
      } catch (error) {
        status.textContent = error.message || this.dataset.failed || '';
        button.disabled = false;
        button.focus();
      }
    });
  }
}
customElements.define('passkey-login', PasskeyLogin);
