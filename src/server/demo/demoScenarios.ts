/**
 * What the demo agent is asked and finds out: question templates for an analytics assistant,
 * the tool runs each one needs (`search_web`, `run_sql`) with plausible results, the final
 * answers, follow-up questions for multi-turn threads, and Python-style failure tracebacks.
 * Everything is drawn from the seeded Rng, so the text is as reproducible as the structure.
 */
import type { Rng } from './seededRandom.js';

export type ToolName = 'search_web' | 'run_sql';

/** One tool invocation the agent makes, with what it returns. */
export interface ToolRun {
  tool: ToolName;
  args: Record<string, string>;
  result: Record<string, unknown>;
}

/** One question to the agent, the tools it uses to answer, and the answer. */
export interface Scenario {
  topic: string;
  question: string;
  tools: ToolRun[];
  answer: string;
  /** Questions a user asks next in the same conversation. */
  followUps: string[];
}

export const SYSTEM_PROMPT =
  'You are Ops Copilot, the analytics assistant of Acme Inc. Use run_sql for questions about ' +
  'internal data (PostgreSQL; tables orders, customers, signups, incidents) and search_web for ' +
  'anything public. Answer concisely, show numbers with units, and cite your sources.';

const REGIONS = ['EMEA', 'North America', 'APAC', 'LATAM'] as const;
const COMPANIES = ['Globex', 'Initech', 'Umbrella Health', 'Stark Logistics', 'Hooli', 'Vandelay Imports'] as const;
const CUSTOMERS = [
  'Globex',
  'Initech',
  'Umbrella Health',
  'Stark Logistics',
  'Hooli',
  'Vandelay Imports',
  'Wonka Foods',
  'Soylent Corp',
  'Tyrell Systems',
  'Cyberdyne',
] as const;
const PRODUCTS = ['Acme Cloud', 'Acme Edge', 'Acme Insights'] as const;
const LIBRARIES = ['httpx', 'SQLAlchemy', 'pydantic', 'FastAPI', 'Celery'] as const;
const DAYS = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'] as const;

const money = (n: number) => `$${n.toLocaleString('en-US', { maximumFractionDigits: 0 })}`;

function sql(query: string, columns: string[], rows: unknown[][]): ToolRun {
  return { tool: 'run_sql', args: { query, database: 'analytics' }, result: { columns, rows, row_count: rows.length } };
}

function search(rng: Rng, query: string, titles: string[]): ToolRun {
  const results = titles.map((title) => {
    const slug = title
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-|-$/g, '');
    const site = rng.pick(['techcrunch.com', 'reuters.com', 'docs.acme.dev', 'news.ycombinator.com', 'theverge.com']);
    return {
      title,
      url: `https://${site}/${slug}`,
      snippet: `${title}. ${rng.pick(['Updated', 'Published', 'Posted'])} ${rng.int(1, 28)} days ago.`,
    };
  });
  return { tool: 'search_web', args: { query }, result: { results } };
}

type Template = (rng: Rng) => Scenario;

const TEMPLATES: Template[] = [
  (rng) => {
    const region = rng.pick(REGIONS);
    const total = rng.int(180_000, 2_400_000);
    const growth = rng.int(-12, 31);
    return {
      topic: `revenue ${region}`,
      question: `What was our revenue in ${region} last quarter?`,
      tools: [
        sql(
          `SELECT sum(amount_usd) AS revenue FROM orders WHERE region = '${region}' AND created_at >= date_trunc('quarter', now()) - interval '3 months' AND created_at < date_trunc('quarter', now())`,
          ['revenue'],
          [[total]],
        ),
      ],
      answer: `Revenue in ${region} last quarter was ${money(total)}, ${growth >= 0 ? 'up' : 'down'} ${Math.abs(growth)}% on the quarter before.`,
      followUps: [
        `And for ${rng.pick(REGIONS.filter((r) => r !== region))}?`,
        'Can you break that down by month?',
        'Which product contributed most?',
        'Why did it change?',
      ],
    };
  },
  (rng) => {
    const n = rng.int(3, 10);
    const names = CUSTOMERS.map((name) => ({ name, key: rng.next() }))
      .sort((a, b) => a.key - b.key)
      .slice(0, n);
    const rows = names.map(({ name }) => [name, rng.int(20_000, 400_000)]).sort((a, b) => Number(b[1]) - Number(a[1]));
    return {
      topic: 'top customers',
      question: `Who are our top ${n} customers by spend this year?`,
      tools: [
        sql(
          `SELECT c.name, sum(o.amount_usd) AS spend FROM orders o JOIN customers c ON c.id = o.customer_id WHERE o.created_at >= date_trunc('year', now()) GROUP BY c.name ORDER BY spend DESC LIMIT ${n}`,
          ['name', 'spend'],
          rows,
        ),
      ],
      answer: `Top ${n} customers this year: ${rows.map(([name, spend]) => `${name} (${money(Number(spend))})`).join(', ')}.`,
      followUps: ['Which of them grew the most?', 'Show the same for last year.', 'Any of them at risk of churning?'],
    };
  },
  (rng) => {
    const rows = DAYS.map((d) => [d, rng.int(40, 900)]);
    const best = rows.reduce((a, b) => (Number(b[1]) > Number(a[1]) ? b : a));
    return {
      topic: 'signups',
      question: 'How many signups did we get per day this week?',
      tools: [
        sql(
          "SELECT to_char(created_at, 'Dy') AS day, count(*) AS signups FROM signups WHERE created_at >= date_trunc('week', now()) GROUP BY 1 ORDER BY min(created_at)",
          ['day', 'signups'],
          rows,
        ),
      ],
      answer: `This week: ${rows.map(([d, n]) => `${d} ${n}`).join(', ')}. ${best[0]} was the busiest day.`,
      followUps: ['How does that compare with last week?', 'Which channel brought the most?', 'Plot it as a table please.'],
    };
  },
  (rng) => {
    const company = rng.pick(COMPANIES);
    return {
      topic: `news ${company}`,
      question: `Summarize the latest news about ${company}.`,
      tools: [
        search(rng, `${company} news`, [
          `${company} raises Series ${rng.pick(['B', 'C', 'D'])} to expand in ${rng.pick(REGIONS)}`,
          `${company} announces new CEO`,
          `${company} partners with ${rng.pick(COMPANIES)}`,
        ]),
      ],
      answer: `${company} has been busy: a new funding round aimed at expansion, a leadership change, and a partnership announced this month. None of it affects our contract terms directly.`,
      followUps: ['Are they a customer of ours?', `What did they spend with us last year?`, 'Anything about layoffs?'],
    };
  },
  (rng) => {
    const lib = rng.pick(LIBRARIES);
    return {
      topic: `${lib} question`,
      question: `How do I configure retries with backoff in ${lib}?`,
      tools: [
        search(rng, `${lib} retries exponential backoff`, [
          `${lib} documentation: transports and retries`,
          `Stack Overflow: retry with backoff in ${lib}`,
          'Exponential backoff and jitter',
        ]),
      ],
      answer: `${lib} does not retry application errors by itself: wrap the call with a retry helper (e.g. tenacity) using exponential backoff with jitter, and only retry idempotent requests and connection errors.`,
      followUps: ['Can you show a code example?', 'What about timeouts?', 'Is tenacity thread-safe?'],
    };
  },
  (rng) => {
    const p95 = rng.int(900, 4200);
    const product = rng.pick(PRODUCTS);
    return {
      topic: 'latency incident',
      question: `Why did ${product} checkout latency spike yesterday?`,
      tools: [
        sql(
          "SELECT date_trunc('hour', started_at) AS hour, percentile_cont(0.95) WITHIN GROUP (ORDER BY latency_ms) AS p95 FROM incidents WHERE started_at >= now() - interval '2 days' GROUP BY 1 ORDER BY p95 DESC LIMIT 3",
          ['hour', 'p95'],
          [
            [`${rng.int(10, 22)}:00`, p95],
            [`${rng.int(0, 9)}:00`, Math.round(p95 * 0.6)],
          ],
        ),
        search(rng, 'payments provider status incident yesterday', [
          'Payments API degraded performance - resolved',
          'Elevated error rates in eu-west-1',
        ]),
      ],
      answer: `p95 checkout latency peaked at ${p95} ms. It lines up with a degraded-performance incident at our payments provider (now resolved); our own services were healthy.`,
      followUps: [
        'How many orders failed during that window?',
        'Did we get any support tickets about it?',
        'Can we add a fallback provider?',
      ],
    };
  },
  (rng) => {
    const days = rng.pick([14, 30, 60]);
    return {
      topic: 'refund policy',
      question: 'What is our refund policy for annual plans?',
      tools: [
        search(rng, 'site:docs.acme.dev refund policy annual plan', [
          'Billing FAQ: refunds and cancellations',
          'Terms of service - section 7: fees',
        ]),
      ],
      answer: `Annual plans can be refunded in full within ${days} days of purchase; after that, cancellation stops renewal but is not refunded pro rata.`,
      followUps: ['Does that apply to EMEA customers too?', 'Draft a reply to a customer asking for one.', 'Who approves exceptions?'],
    };
  },
];

/** A fresh scenario. */
export function pickScenario(rng: Rng): Scenario {
  return rng.pick(TEMPLATES)(rng);
}

/** A second search the agent sometimes runs to double-check its answer. */
export function verificationSearch(rng: Rng, scenario: Scenario): ToolRun {
  return search(rng, `${scenario.topic} ${rng.pick(['latest', 'official source', 'explained'])}`, [
    `${scenario.topic[0]!.toUpperCase()}${scenario.topic.slice(1)}: what changed this month`,
    `Community thread: ${scenario.question}`,
  ]);
}

/** Failures as a Python SDK records them: the traceback text of the raised exception. */
export function tracebackFor(rng: Rng, where: 'openai' | 'anthropic' | ToolName): string {
  const frames = (lines: [string, number, string, string][]) =>
    lines.map(([file, line, fn, code]) => `  File "${file}", line ${line}, in ${fn}\n    ${code}`).join('\n');
  const head = 'Traceback (most recent call last):\n';
  const agent: [string, number, string, string] = ['/srv/copilot/agent.py', rng.int(60, 140), 'run_step', 'result = step.execute(context)'];
  switch (where) {
    case 'openai':
      return `${head}${frames([agent, ['/srv/copilot/llm.py', 44, 'complete', 'return client.chat.completions.create(**request)'], ['/usr/local/lib/python3.11/site-packages/openai/_base_client.py', 1047, 'request', 'raise self._make_status_error_from_response(err.response) from None']])}\n${rng.pick(
        [
          "openai.RateLimitError: Error code: 429 - {'error': {'message': 'Rate limit reached for requests', 'type': 'requests', 'param': None, 'code': 'rate_limit_exceeded'}}",
          'openai.APITimeoutError: Request timed out.',
          "openai.BadRequestError: Error code: 400 - {'error': {'message': \"This model's maximum context length is 128000 tokens.\", 'type': 'invalid_request_error', 'code': 'context_length_exceeded'}}",
        ],
      )}`;
    case 'anthropic':
      return `${head}${frames([agent, ['/srv/copilot/llm.py', 71, 'complete', 'return client.messages.create(**request)'], ['/usr/local/lib/python3.11/site-packages/anthropic/_base_client.py', 1058, 'request', 'raise self._make_status_error_from_response(err.response) from None']])}\n${rng.pick(
        [
          "anthropic.InternalServerError: Error code: 529 - {'type': 'error', 'error': {'type': 'overloaded_error', 'message': 'Overloaded'}}",
          "anthropic.RateLimitError: Error code: 429 - {'type': 'error', 'error': {'type': 'rate_limit_error', 'message': 'Number of request tokens has exceeded your per-minute rate limit'}}",
        ],
      )}`;
    case 'run_sql':
      return `${head}${frames([agent, ['/srv/copilot/tools/sql.py', 88, 'run_sql', 'cursor.execute(query)'], ['/usr/local/lib/python3.11/site-packages/psycopg/cursor.py', 732, 'execute', 'raise ex.with_traceback(None)']])}\n${rng.pick(
        [
          'psycopg.errors.UndefinedColumn: column "amount_usd" does not exist\nLINE 1: SELECT sum(amount_usd) AS revenue FROM orders WHERE region ...\n                   ^',
          'psycopg.errors.QueryCanceled: canceling statement due to statement timeout',
          'psycopg.errors.SyntaxError: syntax error at or near "GROUP"',
        ],
      )}`;
    case 'search_web':
      return `${head}${frames([agent, ['/srv/copilot/tools/search.py', 35, 'search_web', 'response.raise_for_status()'], ['/usr/local/lib/python3.11/site-packages/httpx/_models.py', 761, 'raise_for_status', 'raise HTTPStatusError(message, request=request, response=self)']])}\n${rng.pick(
        [
          "httpx.HTTPStatusError: Server error '503 Service Unavailable' for url 'https://api.search.example/v1/search'",
          'httpx.ConnectTimeout: timed out',
        ],
      )}`;
  }
}
