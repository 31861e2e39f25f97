-- A member's unread messages alone (issue 26 point 7): the header counts them on every signed-in
-- page, up to UNREAD_BADGE_LIMIT (src/server/services/accounts/sessions.ts). Through
-- messages_recipient_idx that count read every message of the member, read or not, in the table:
-- 135 ms for a member with 1,000,000 messages.
CREATE INDEX "messages_unread_idx" ON "messages" USING btree ("recipient_id") WHERE "messages"."read_at" IS NULL;