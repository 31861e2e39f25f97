DROP INDEX "donations_provider_ref_key";--> statement-breakpoint
ALTER TABLE "donations" ADD COLUMN "provider" text DEFAULT 'demo' NOT NULL;--> statement-breakpoint
ALTER TABLE "donations" ADD COLUMN "anonymous" boolean DEFAULT false NOT NULL;--> statement-breakpoint
CREATE INDEX "comments_author_idx" ON "comments" USING btree ("author_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "donations_provider_ref_key" ON "donations" USING btree ("provider","provider_ref");