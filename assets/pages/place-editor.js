// The places editor of /dashboard/cases/{id}/places (issue 34): boxes for the signers' places,
// drawn on the page images with a pointer, moved and resized by pointer or keyboard, removed by
// Delete, and sent with the save form as one JSON field. Places are kept in PDF points (origin at
// the page's lower-left corner, y upwards), as sealing reads them; the boxes are placed in
// percentages of the page image, so that they follow the image at any width. Plain JavaScript,
// loaded from docpipe (the CSP allows no inline script; element.style set from here is allowed).
'use strict';

/** A new place's size by kind, in points: the anchors' marker sizes (anchor-kinds.ts). */
const SIZES = {
  sign: { width: 172.8, height: 31.2 },
  initials: { width: 67.2, height: 18.2 },
  name: { width: 144, height: 13 },
  date: { width: 84, height: 13 },
};
/** A drag shorter than this many points is a click: it puts a box of the kind's size there. */
const CLICK_POINTS = 4;
/** Smallest side a box keeps, in points (case-places.ts MIN_PLACE_SIDE). */
const MIN_SIDE = 4;
/** Points an arrow key moves or resizes a box by. */
const STEP = 2;

function fill(text, values) {
  return text.replace(/\{(\w+)\}/g, (all, name) => (name in values ? values[name] : all));
}

class PlaceEditor extends HTMLElement {
  connectedCallback() {
    if (this.ready) return;
    this.ready = true;
    this.places = JSON.parse(this.dataset.places || '[]');
    this.recipients = JSON.parse(this.dataset.recipients || '[]');
    this.words = JSON.parse(this.dataset.words || '{}');
    this.status = this.querySelector('[data-role=status]');
    this.pick = {
      recipient: this.querySelector('[data-role=recipient]'),
      kind: this.querySelector('[data-role=kind]'),
      page: this.querySelector('[data-role=page]'),
    };
    this.pages = [...this.querySelectorAll('.place-page')];
    this.removeAttribute('hidden');
    for (const page of this.pages) this.watchPage(page);
    this.querySelector('[data-role=add]').addEventListener('click', () => this.addOnChosenPage());
    const form = document.querySelector('form[data-role=save]');
    if (form)
      form.addEventListener('submit', () => {
        form.querySelector('input[name=places]').value = JSON.stringify(this.places);
      });
    this.draw();
  }

  nameOf(n) {
    const r = this.recipients.find((x) => x.n === n);
    return r ? r.name : '#' + n;
  }

  say(key, place) {
    this.status.textContent = fill(this.words[key], {
      kind: this.words.kinds[place.kind],
      recipient: this.nameOf(place.recipient),
      page: String(place.page),
    });
  }

  pageOf(place) {
    return this.pages.find(
      (p) => Number(p.dataset.document) === place.document && Number(p.dataset.page) === place.page,
    );
  }

  size(page) {
    return { width: Number(page.dataset.width), height: Number(page.dataset.height) };
  }

  /** The point under a pointer event, in the page's PDF points. */
  pointAt(page, event) {
    const box = page.getBoundingClientRect();
    const { width, height } = this.size(page);
    return {
      x: ((event.clientX - box.left) / box.width) * width,
      y: height - ((event.clientY - box.top) / box.height) * height,
    };
  }

  /** A place kept inside its page and no smaller than MIN_SIDE. */
  clamp(place) {
    const { width, height } = this.size(this.pageOf(place));
    const r = place.rect;
    r.width = Math.min(Math.max(r.width, MIN_SIDE), width);
    r.height = Math.min(Math.max(r.height, MIN_SIDE), height);
    r.x = Math.min(Math.max(r.x, 0), width - r.width);
    r.y = Math.min(Math.max(r.y, 0), height - r.height);
    for (const k of ['x', 'y', 'width', 'height']) r[k] = Math.round(r[k] * 100) / 100;
  }

  chosen() {
    return { recipient: Number(this.pick.recipient.value), kind: this.pick.kind.value };
  }

  choosePage(place) {
    this.pick.page.value = place.document + ':' + place.page;
  }

  addOnChosenPage() {
    const [document, page] = this.pick.page.value.split(':').map(Number);
    const target = this.pageOf({ document, page });
    if (!target || !this.pick.recipient.value) return;
    const { kind, recipient } = this.chosen();
    const { width, height } = this.size(target);
    const s = SIZES[kind];
    const place = {
      document,
      recipient,
      kind,
      page,
      rect: {
        x: (width - s.width) / 2,
        y: (height - s.height) / 2,
        width: s.width,
        height: s.height,
      },
    };
    this.clamp(place);
    this.places.push(place);
    this.draw();
    this.focusPlace(place);
    this.say('added', place);
  }

  focusPlace(place) {
    const box = this.querySelector(`.place-box[data-at="${this.places.indexOf(place)}"]`);
    if (box) box.focus();
  }

  watchPage(page) {
    page.addEventListener('pointerdown', (event) => {
      if (event.button !== 0 || !this.pick.recipient.value) return;
      const target = event.target;
      const at = target.closest('.place-box');
      event.preventDefault();
      const start = this.pointAt(page, event);
      let place;
      let mode;
      let origin;
      if (at) {
        place = this.places[Number(at.dataset.at)];
        mode = target.classList.contains('place-handle') ? 'resize' : 'move';
        origin = { ...place.rect };
      } else {
        const { kind, recipient } = this.chosen();
        place = {
          document: Number(page.dataset.document),
          recipient,
          kind,
          page: Number(page.dataset.page),
          rect: { x: start.x, y: start.y, width: 0, height: 0 },
        };
        this.places.push(place);
        mode = 'draw';
      }
      this.choosePage(place);
      page.setPointerCapture(event.pointerId);
      const onMove = (e) => {
        const p = this.pointAt(page, e);
        const r = place.rect;
        if (mode === 'move') {
          r.x = origin.x + p.x - start.x;
          r.y = origin.y + p.y - start.y;
        } else if (mode === 'resize') {
          // The handle is the lower-right corner: the top edge stays where it is.
          const top = origin.y + origin.height;
          r.width = origin.width + p.x - start.x;
          r.height = Math.max(MIN_SIDE, top - p.y);
          r.y = top - r.height;
        } else {
          r.x = Math.min(start.x, p.x);
          r.y = Math.min(start.y, p.y);
          r.width = Math.abs(p.x - start.x);
          r.height = Math.abs(p.y - start.y);
        }
        this.clamp(place);
        this.draw();
      };
      const onUp = (e) => {
        page.removeEventListener('pointermove', onMove);
        page.removeEventListener('pointerup', onUp);
        page.removeEventListener('pointercancel', onUp);
        if (mode === 'draw') {
          const p = this.pointAt(page, e);
          if (Math.abs(p.x - start.x) < CLICK_POINTS && Math.abs(p.y - start.y) < CLICK_POINTS) {
            // A click: a box of the kind's size with its top-left corner there.
            const s = SIZES[place.kind];
            place.rect = { x: start.x, y: start.y - s.height, width: s.width, height: s.height };
          }
          this.clamp(place);
          this.draw();
          this.say('added', place);
        } else {
          this.say(mode === 'move' ? 'moved' : 'resized', place);
        }
        this.focusPlace(place);
      };
      page.addEventListener('pointermove', onMove);
      page.addEventListener('pointerup', onUp);
      page.addEventListener('pointercancel', onUp);
    });
  }

  onKey(event, place) {
    const moves = {
      ArrowLeft: [-STEP, 0],
      ArrowRight: [STEP, 0],
      ArrowUp: [0, STEP],
      ArrowDown: [0, -STEP],
    };
    if (event.key === 'Delete' || event.key === 'Backspace') {
      event.preventDefault();
      this.places.splice(this.places.indexOf(place), 1);
      this.draw();
      this.say('removed', place);
      return;
    }
    const step = moves[event.key];
    if (!step) return;
    event.preventDefault();
    const r = place.rect;
    if (event.shiftKey) {
      // Up and Right grow the box, Down and Left shrink it; its top-left corner stays.
      const top = r.y + r.height;
      r.width += step[0];
      r.height += step[1];
      r.y = top - r.height;
    } else {
      r.x += step[0];
      r.y += step[1];
    }
    this.clamp(place);
    this.draw();
    this.focusPlace(place);
    this.say(event.shiftKey ? 'resized' : 'moved', place);
  }

  /** Every box anew from `places`. */
  draw() {
    for (const old of this.querySelectorAll('.place-box')) old.remove();
    this.places.forEach((place, i) => {
      const page = this.pageOf(place);
      if (!page) return;
      const { width, height } = this.size(page);
      const r = place.rect;
      const box = document.createElement('div');
      box.className = 'place-box place-' + place.kind;
      box.dataset.at = String(i);
      box.tabIndex = 0;
      box.setAttribute('role', 'button');
      box.setAttribute(
        'aria-label',
        fill(this.words.boxLabel, {
          kind: this.words.kinds[place.kind],
          recipient: this.nameOf(place.recipient),
          page: String(place.page),
        }),
      );
      box.style.left = (r.x / width) * 100 + '%';
      box.style.top = ((height - r.y - r.height) / height) * 100 + '%';
      box.style.width = (r.width / width) * 100 + '%';
      box.style.height = (r.height / height) * 100 + '%';
      const label = document.createElement('span');
      label.className = 'place-label';
      label.textContent = this.words.kinds[place.kind] + ' · ' + this.nameOf(place.recipient);
      const handle = document.createElement('span');
      handle.className = 'place-handle';
      handle.setAttribute('aria-hidden', 'true');
      box.append(label, handle);
      box.addEventListener('keydown', (e) => this.onKey(e, place));
      box.addEventListener('focus', () => this.choosePage(place));
      page.append(box);
    });
  }
}

customElements.define('place-editor', PlaceEditor);
