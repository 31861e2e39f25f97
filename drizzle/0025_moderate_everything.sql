-- Issue 28 point 7: build logs, makes and members' collections are reported, hidden and restored
-- like projects, comments and videos (src/server/services/staff/moderation-targets.ts). Logs had
-- hidden_at already; makes and collections get it, and reports take the three new kinds.
ALTER TABLE "reports" DROP CONSTRAINT "reports_kind_check";--> statement-breakpoint
ALTER TABLE "member_collections" ADD COLUMN "hidden_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "member_collections" ADD COLUMN "hidden_by" integer;--> statement-breakpoint
ALTER TABLE "makes" ADD COLUMN "hidden_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "makes" ADD COLUMN "hidden_by" integer;--> statement-breakpoint
ALTER TABLE "member_collections" ADD CONSTRAINT "member_collections_hidden_by_users_id_fk" FOREIGN KEY ("hidden_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "makes" ADD CONSTRAINT "makes_hidden_by_users_id_fk" FOREIGN KEY ("hidden_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reports" ADD CONSTRAINT "reports_kind_check" CHECK ("reports"."kind" IN ('project', 'comment', 'video', 'user', 'log', 'make', 'collection'));