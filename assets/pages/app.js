// docpipe's pages: the few things that need script, as progressive enhancement. Every page works
// without it (forms post, links open); with it, a copy button copies, a confirmation is asked
// before a destructive form is sent, and a form's problems are focused. Plain JavaScript with no
// build step, loaded from docpipe (the CSP allows no inline script).
'use strict';

/**
 * <copy-button for="id">Copy</copy-button>: copies the text of the element with that id, and says
 * so to a screen reader ("Copied") through a live region.
 */
class CopyButton extends HTMLElement {
  connectedCallback() {
    if (this.querySelector('button')) return;
    const button = document.createElement('button');
    button.type = 'button';
    button.className = 'secondary';
    button.textContent = this.textContent.trim() || 'Copy';
    const status = document.createElement('span');
    status.setAttribute('role', 'status');
    status.className = 'copy-status';
    this.textContent = '';
    this.append(button, status);
    button.addEventListener('click', async () => {
      const source = document.getElementById(this.getAttribute('for') || '');
      if (!source) return;
      // A read-only field (a signing link) holds its text as its value.
      const field = source instanceof HTMLInputElement ? source : null;
      const text = field ? field.value : source.textContent.trim();
      try {
        await navigator.clipboard.writeText(text);
      } catch {
        // Without clipboard access (an http page outside localhost): select it for Ctrl+C.
        if (field) {
          field.focus();
          field.select();
          status.textContent = '';
          return;
        }
        const range = document.createRange();
        range.selectNodeContents(source);
        const selection = window.getSelection();
        selection.removeAllRanges();
        selection.addRange(range);
      }
      status.textContent = this.getAttribute('data-copied') || 'Copied';
    });
  }
}
customElements.define('copy-button', CopyButton);

// A form with data-confirm asks before it is sent; without script, the server's own
// confirmation step (or the button's wording) stands.
document.addEventListener('submit', (event) => {
  const form = event.target;
  if (!(form instanceof HTMLFormElement)) return;
  const question = form.getAttribute('data-confirm');
  if (question && !window.confirm(question)) event.preventDefault();
});

// A page that comes back with problems focuses their summary, so that it is read first.
document.addEventListener('DOMContentLoaded', () => {
  const first = document.querySelector('[data-focus-first]');
  if (first instanceof HTMLElement) first.focus();
});
