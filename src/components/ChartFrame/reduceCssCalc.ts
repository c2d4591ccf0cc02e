/**
 * A small stand-in for the `reduce-css-calc` package, which @visx/text uses to turn its
 * vertical-anchor offsets ('calc(1.5 * -1em + (0.71em / 2))') into one length ('-1.145em'). The
 * package pulls a general math-expression evaluator (about 7 KiB gzip) into the chart chunk;
 * this reduces exactly the arithmetic those offsets use: numbers with at most one unit, + − × ÷
 * and parentheses. Anything else (mixed units, var(), unknown syntax) is returned unchanged, as
 * the package does with what it cannot reduce. vite.config.ts aliases the package to this module;
 * tests/unit/components/reduceCssCalc.test.ts checks it against the package.
 */

interface Length {
  value: number;
  unit: string;
}

type Token = { kind: 'num'; length: Length } | { kind: 'op'; op: string };

function tokenize(text: string): Token[] | null {
  const tokens: Token[] = [];
  const re = /\s*(?:(\d*\.?\d+(?:e[+-]?\d+)?)([a-z%]*)|([-+*/()]))/giy;
  let index = 0;
  while (index < text.length) {
    re.lastIndex = index;
    const m = re.exec(text);
    if (!m) return /^\s*$/.test(text.slice(index)) ? tokens : null;
    index = re.lastIndex;
    if (m[1] !== undefined)
      tokens.push({
        kind: 'num',
        length: { value: Number(m[1]), unit: (m[2] ?? '').toLowerCase() },
      });
    else tokens.push({ kind: 'op', op: m[3]! });
  }
  return tokens;
}

class Parser {
  private position = 0;
  constructor(private readonly tokens: Token[]) {}

  parse(): Length | null {
    const result = this.sum();
    return result && this.position === this.tokens.length ? result : null;
  }

  private peekOp(): string | null {
    const token = this.tokens[this.position];
    return token?.kind === 'op' ? token.op : null;
  }

  private sum(): Length | null {
    let left = this.product();
    while (left && (this.peekOp() === '+' || this.peekOp() === '-')) {
      const op = this.peekOp();
      this.position += 1;
      const right = this.product();
      if (!right) return null;
      const unit =
        left.value === 0 && !left.unit
          ? right.unit
          : right.value === 0 && !right.unit
            ? left.unit
            : left.unit;
      if (left.unit && right.unit && left.unit !== right.unit) return null;
      left = {
        value: op === '+' ? left.value + right.value : left.value - right.value,
        unit: unit || right.unit,
      };
    }
    return left;
  }

  private product(): Length | null {
    let left = this.unary();
    while (left && (this.peekOp() === '*' || this.peekOp() === '/')) {
      const op = this.peekOp();
      this.position += 1;
      const right = this.unary();
      if (!right) return null;
      if (op === '*') {
        if (left.unit && right.unit) return null;
        left = { value: left.value * right.value, unit: left.unit || right.unit };
      } else {
        if (right.unit || right.value === 0) return null;
        left = { value: left.value / right.value, unit: left.unit };
      }
    }
    return left;
  }

  private unary(): Length | null {
    const op = this.peekOp();
    if (op === '-' || op === '+') {
      this.position += 1;
      const inner = this.unary();
      return inner && { value: op === '-' ? -inner.value : inner.value, unit: inner.unit };
    }
    return this.primary();
  }

  private primary(): Length | null {
    const token = this.tokens[this.position];
    if (!token) return null;
    if (token.kind === 'num') {
      this.position += 1;
      return token.length;
    }
    if (token.op !== '(') return null;
    this.position += 1;
    const inner = this.sum();
    if (!inner || this.peekOp() !== ')') return null;
    this.position += 1;
    return inner;
  }
}

/**
 * Reduces 'calc(<arithmetic>)' to one length rounded to `precision` decimals, e.g.
 * 'calc(0 * -1em + (0.71em / 2))' → '0.355em'. Returns `value` unchanged when it is not such a
 * calc() expression.
 */
export default function reduceCssCalc(value: string, precision = 5): string {
  const match = /^\s*calc\(([\s\S]*)\)\s*$/i.exec(String(value));
  if (!match) return value;
  const tokens = tokenize(match[1]!);
  const result = tokens && new Parser(tokens).parse();
  if (!result || !Number.isFinite(result.value)) return value;
  const rounded = Number(result.value.toFixed(precision)) + 0;
  return `${rounded}${result.unit}`;
}
