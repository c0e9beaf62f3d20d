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
  /** What a user asks next in the same conversation, each with the work and answer it gets. */
  followUps: FollowUp[];
}

/** A follow-up question, the tools that answer it, and the answer (which replies to it). */
export interface FollowUp {
  question: string;
  tools: ToolRun[];
  answer: string;
}

/** A follow-up answered from the conversation alone, without tools. */
const reply = (question: string, answer: string): FollowUp => ({ question, tools: [], answer });

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
        (() => {
          const other = rng.pick(REGIONS.filter((r) => r !== region));
          const otherTotal = rng.int(180_000, 2_400_000);
          return {
            question: `And for ${other}?`,
            tools: [
              sql(
                `SELECT sum(amount_usd) AS revenue FROM orders WHERE region = '${other}' AND created_at >= date_trunc('quarter', now()) - interval '3 months' AND created_at < date_trunc('quarter', now())`,
                ['revenue'],
                [[otherTotal]],
              ),
            ],
            answer: `${other} brought in ${money(otherTotal)} last quarter, ${otherTotal > total ? 'more' : 'less'} than ${region} (${money(total)}).`,
          };
        })(),
        (() => {
          const months = [0.31, 0.33, 0.36].map((share) => Math.round(total * share));
          return {
            question: 'Can you break that down by month?',
            tools: [
              sql(
                `SELECT date_trunc('month', created_at) AS month, sum(amount_usd) AS revenue FROM orders WHERE region = '${region}' GROUP BY 1 ORDER BY 1 DESC LIMIT 3`,
                ['month', 'revenue'],
                months.map((m, i) => [`M${i + 1}`, m]),
              ),
            ],
            answer: `By month in ${region}: ${months.map((m, i) => `month ${i + 1} ${money(m)}`).join(', ')}. The last month of the quarter was the strongest.`,
          };
        })(),
        (() => {
          const product = rng.pick(PRODUCTS);
          return {
            question: 'Which product contributed most?',
            tools: [
              sql(
                `SELECT product, sum(amount_usd) AS revenue FROM orders WHERE region = '${region}' GROUP BY product ORDER BY revenue DESC LIMIT 1`,
                ['product', 'revenue'],
                [[product, Math.round(total * 0.52)]],
              ),
            ],
            answer: `${product} contributed most: ${money(Math.round(total * 0.52))}, about half of ${region}'s revenue.`,
          };
        })(),
        reply(
          'Why did it change?',
          growth >= 0
            ? `Mostly expansion revenue: existing ${region} customers upgraded plans; new logos were flat.`
            : `Two large ${region} renewals slipped into this quarter, which explains most of the drop.`,
        ),
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
      followUps: [
        reply(
          'Which of them grew the most?',
          `${rows[rows.length - 1]![0]} grew the most: its spend more than doubled on last year, from a small base.`,
        ),
        {
          question: 'Show the same for last year.',
          tools: [
            sql(
              `SELECT c.name, sum(o.amount_usd) AS spend FROM orders o JOIN customers c ON c.id = o.customer_id WHERE o.created_at >= date_trunc('year', now()) - interval '1 year' AND o.created_at < date_trunc('year', now()) GROUP BY c.name ORDER BY spend DESC LIMIT ${n}`,
              ['name', 'spend'],
              rows.map(([name, spend]) => [name, Math.round(Number(spend) * 0.8)]),
            ),
          ],
          answer: `Last year's top ${n}: ${rows.map(([name, spend]) => `${name} (${money(Math.round(Number(spend) * 0.8))})`).join(', ')}.`,
        },
        reply(
          'Any of them at risk of churning?',
          `${rows[0]![0]} has an open escalation and a renewal in 45 days; the others look healthy.`,
        ),
      ],
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
      followUps: [
        (() => {
          const thisWeek = rows.reduce((sum, [, n]) => sum + Number(n), 0);
          const lastWeek = rng.int(Math.round(thisWeek * 0.7), Math.round(thisWeek * 1.2));
          return {
            question: 'How does that compare with last week?',
            tools: [
              sql(
                "SELECT count(*) AS signups FROM signups WHERE created_at >= date_trunc('week', now()) - interval '7 days' AND created_at < date_trunc('week', now())",
                ['signups'],
                [[lastWeek]],
              ),
            ],
            answer: `${thisWeek} signups this week against ${lastWeek} last week (${thisWeek >= lastWeek ? '+' : ''}${Math.round(((thisWeek - lastWeek) / lastWeek) * 100)}%).`,
          };
        })(),
        {
          question: 'Which channel brought the most?',
          tools: [
            sql(
              "SELECT channel, count(*) AS signups FROM signups WHERE created_at >= date_trunc('week', now()) GROUP BY channel ORDER BY signups DESC",
              ['channel', 'signups'],
              [
                ['organic search', 412],
                ['referral', 230],
                ['paid social', 118],
              ],
            ),
          ],
          answer: 'Organic search brought the most signups (412), then referrals (230) and paid social (118).',
        },
        reply('Plot it as a table please.', `| day | signups |\n|---|---|\n${rows.map(([d, n]) => `| ${d} | ${n} |`).join('\n')}`),
      ],
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
      followUps: [
        {
          question: 'Are they a customer of ours?',
          tools: [
            sql(
              `SELECT name, plan, since FROM customers WHERE name = '${company}'`,
              ['name', 'plan', 'since'],
              [[company, 'Enterprise', '2021-03-01']],
            ),
          ],
          answer: `Yes: ${company} has been on the Enterprise plan since March 2021.`,
        },
        (() => {
          const spend = rng.int(40_000, 600_000);
          return {
            question: 'What did they spend with us last year?',
            tools: [
              sql(
                `SELECT sum(o.amount_usd) AS spend FROM orders o JOIN customers c ON c.id = o.customer_id WHERE c.name = '${company}' AND o.created_at >= date_trunc('year', now()) - interval '1 year' AND o.created_at < date_trunc('year', now())`,
                ['spend'],
                [[spend]],
              ),
            ],
            answer: `${company} spent ${money(spend)} with us last year.`,
          };
        })(),
        {
          question: 'Anything about layoffs?',
          tools: [search(rng, `${company} layoffs`, [`${company} denies layoff rumours`, `${company} hiring in ${rng.pick(REGIONS)}`])],
          answer: `No layoffs reported: ${company} denied the rumours and is still hiring.`,
        },
      ],
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
      followUps: [
        reply(
          'Can you show a code example?',
          'from tenacity import retry, stop_after_attempt, wait_random_exponential\n\n@retry(wait=wait_random_exponential(multiplier=0.5, max=20), stop=stop_after_attempt(5))\ndef fetch(url):\n    return client.get(url, timeout=10)',
        ),
        reply(
          'What about timeouts?',
          `Set an explicit timeout on every ${lib} call (connect and read, e.g. 5 s and 30 s) and treat a timeout as retryable.`,
        ),
        reply('Is tenacity thread-safe?', 'Yes: each decorated call keeps its retry state per invocation, so threads do not share it.'),
      ],
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
        (() => {
          const failed = rng.int(12, 340);
          return {
            question: 'How many orders failed during that window?',
            tools: [
              sql(
                "SELECT count(*) AS failed FROM orders WHERE status = 'failed' AND created_at >= now() - interval '2 days'",
                ['failed'],
                [[failed]],
              ),
            ],
            answer: `${failed} orders failed while latency was high; most customers retried successfully within the hour.`,
          };
        })(),
        {
          question: 'Did we get any support tickets about it?',
          tools: [
            sql(
              "SELECT count(*) AS tickets FROM incidents WHERE kind = 'support_ticket' AND started_at >= now() - interval '2 days'",
              ['tickets'],
              [[rng.int(3, 40)]],
            ),
          ],
          answer: `Yes, a handful of tickets mention slow ${product} checkout; support linked them to the provider incident.`,
        },
        reply(
          'Can we add a fallback provider?',
          'Yes: route to a second payments provider when the first one’s p95 exceeds 2 s, behind a feature flag.',
        ),
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
      followUps: [
        reply(
          'Does that apply to EMEA customers too?',
          `Yes, and EMEA consumers additionally have the statutory 14-day withdrawal right; our ${days}-day window covers it.`,
        ),
        reply(
          'Draft a reply to a customer asking for one.',
          `Hi! Thanks for reaching out. Annual plans are refundable in full within ${days} days of purchase, so I have started your refund; you will see it within 5–10 business days.`,
        ),
        reply(
          'Who approves exceptions?',
          'Refunds outside the window need approval from the Head of Billing (or finance for amounts over $10,000).',
        ),
      ],
    };
  },
];

/** A fresh scenario. */
export function pickScenario(rng: Rng): Scenario {
  const scenario = rng.pick(TEMPLATES)(rng);
  // Every conversation can run to four turns: the last one asks for the gist of the first answer.
  if (scenario.followUps.length < 3) throw new Error(`scenario ${scenario.topic} needs three follow-ups`);
  const wrapUp = reply('Thanks! Can you sum up your first answer in one line?', scenario.answer);
  return { ...scenario, followUps: [...scenario.followUps.slice(0, 3), wrapUp] };
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
