-- The hot score, stored (issue 13); see hotScoreSql in src/server/db/schema/projects.ts.
-- log2(weighted reactions) + publication time / 12 hours: the order of two projects never changes
-- as time passes, so PostgreSQL keeps the score on every write of the counts and an index reads the
-- hot and recommend lists in their order instead of scoring and sorting every published project.
-- ADD COLUMN rewrites the table once, computing the score of every existing project.
ALTER TABLE "projects" ADD COLUMN "hot_score" double precision GENERATED ALWAYS AS (ln(greatest("projects"."star_count" * 3 + "projects"."like_count" * 2 + "projects"."comment_count" * 2 + 1, 1)::float8) / ln(2) + extract(epoch FROM ("projects"."published_at" - '1970-01-01 00:00:00+00'::timestamptz))::float8 / 43200) STORED NOT NULL;
--> statement-breakpoint
CREATE INDEX "projects_hot_idx" ON "projects" USING btree ("hot_score" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE "projects"."status" = 'published';
--> statement-breakpoint
-- Curated projects first, then the rest by hot score (was: recommend_rank alone, every status).
DROP INDEX "projects_recommend_idx";
--> statement-breakpoint
CREATE INDEX "projects_recommend_idx" ON "projects" USING btree ("recommend_rank","hot_score" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE "projects"."status" = 'published';
