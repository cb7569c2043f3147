import type { DirectRunProps } from './part-text.js';
import { attribute, isOn, xmlTokens } from './xml-tokens.js';

/** The run properties lint judges text by, once styles are applied. */
export interface EffectiveRunProps {
  /** Half-points. */
  size: number;
  color: string;
  vanish: boolean;
}

interface StyleProps {
  size?: number;
  color?: string;
  vanish?: boolean;
}

interface Style extends StyleProps {
  type: string;
  basedOn?: string;
}

/** Word's size when nothing sets one: 10 pt. */
const DEFAULT_SIZE = 20;

/**
 * The styles part, read for the properties lint needs: a run's own properties win over its
 * character style's, those over its paragraph style's, those over the document defaults (each
 * style with the ones it is based on).
 */
export class StyleSheet {
  private readonly styles = new Map<string, Style>();
  private defaults: StyleProps = {};
  private defaultParagraphStyle: string | undefined;

  constructor(xml: string | undefined) {
    if (xml) this.read(xml);
  }

  resolve(run: DirectRunProps, paragraphStyle: string | undefined): EffectiveRunProps {
    const chain = [
      run,
      ...this.chain(run.style),
      ...this.chain(paragraphStyle ?? this.defaultParagraphStyle),
      this.defaults,
    ];
    const pick = <K extends keyof StyleProps>(key: K) =>
      chain.find((p) => p[key] !== undefined)?.[key];
    return {
      size: pick('size') ?? DEFAULT_SIZE,
      color: pick('color') ?? 'auto',
      vanish: pick('vanish') ?? false,
    };
  }

  /** A style and the ones it is based on, nearest first; bounded against cycles. */
  private chain(id: string | undefined): StyleProps[] {
    const out: StyleProps[] = [];
    for (let at = id; at !== undefined && out.length <= this.styles.size;) {
      const style = this.styles.get(at);
      if (!style) break;
      out.push(style);
      at = style.basedOn;
    }
    return out;
  }

  private read(xml: string): void {
    const stack: string[] = [];
    let style: Style | undefined;
    for (const token of xmlTokens(xml)) {
      if (token.kind === 'text') continue;
      if (token.kind === 'close') {
        const at = stack.lastIndexOf(token.name);
        if (at !== -1) stack.length = at;
        if (token.name === 'w:style') style = undefined;
        continue;
      }
      const parent = stack[stack.length - 1];
      const owner = stack[stack.length - 2];
      if (token.name === 'w:style') {
        const id = attribute(token.attrs, 'styleId') ?? '';
        style = { type: attribute(token.attrs, 'type') ?? 'paragraph' };
        this.styles.set(id, style);
        const isDefault = ['1', 'true', 'on'].includes(attribute(token.attrs, 'default') ?? '');
        if (isDefault && style.type === 'paragraph') this.defaultParagraphStyle = id;
      } else if (token.name === 'w:basedOn' && parent === 'w:style' && style)
        style.basedOn = attribute(token.attrs, 'val');
      else if (parent === 'w:rPr') {
        const target =
          owner === 'w:style' ? style : owner === 'w:rPrDefault' ? this.defaults : undefined;
        if (target) setProperty(target, token.name, token.attrs);
      }
      if (token.kind === 'open') stack.push(token.name);
    }
  }
}

function setProperty(props: StyleProps, name: string, attrs: string): void {
  const val = attribute(attrs, 'val');
  if (name === 'w:sz' && val !== undefined && /^\d+$/.test(val)) props.size = Number(val);
  else if (name === 'w:color' && val !== undefined) props.color = val;
  else if (name === 'w:vanish') props.vanish = isOn(attrs);
}
