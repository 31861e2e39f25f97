import { boolean, index, integer, pgTable, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { projects } from './projects.ts';
import { users } from './users.ts';

/** Where a donation's payment was made: Stripe Checkout, an imported CSV export, or the demo seed. */
export const DONATION_PROVIDERS = ['stripe', 'opencollective', 'demo'] as const;
export type DonationProvider = (typeof DONATION_PROVIDERS)[number];

/**
 * A donation received. `amount` is in minor units (cents, fen) of `currency` (ISO 4217, upper
 * case). A payment is stored once: `providerRef` is the provider's own id for it (a Checkout
 * Session id, an Open Collective transaction id), unique per provider, so a replayed webhook or a
 * second import of the same export adds nothing. `donorName` is kept even for an `anonymous`
 * donor (staff may need it for a refund); pages and the API show anonymous donors without it.
 */
export const donations = pgTable(
  'donations',
  {
    id: serial('id').primaryKey(),
    provider: text('provider').$type<DonationProvider>().notNull().default('demo'),
    providerRef: text('provider_ref').notNull(),
    donorName: text('donor_name').notNull(),
    /** The member who donated while signed in, if any. */
    userId: integer('user_id').references(() => users.id, { onDelete: 'set null' }),
    anonymous: boolean('anonymous').notNull().default(false),
    amount: integer('amount').notNull(),
    currency: text('currency').notNull().default('USD'),
    message: text('message').notNull().default(''),
    /** The project the donation was made towards; null for the site itself. */
    projectId: integer('project_id').references(() => projects.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('donations_provider_ref_key').on(t.provider, t.providerRef),
    index('donations_created_idx').on(t.createdAt.desc().nullsFirst(), t.id.desc().nullsFirst()),
  ],
);
