-- The dashboard search uses a trigram index (pg_trgm is a trusted extension: the database owner may create it).
CREATE EXTENSION IF NOT EXISTS pg_trgm;--> statement-breakpoint
DROP INDEX "logs_company_created_idx";--> statement-breakpoint
CREATE INDEX "logs_company_status_created_idx" ON "logs" USING btree ("company_id","status","created_at","id");--> statement-breakpoint
CREATE INDEX "logs_company_name_idx" ON "logs" USING btree ("company_id",lower("name"),"id");--> statement-breakpoint
CREATE INDEX "logs_company_type_idx" ON "logs" USING btree ("company_id","type","id");--> statement-breakpoint
CREATE INDEX "logs_company_status_idx" ON "logs" USING btree ("company_id","status","id");--> statement-breakpoint
CREATE INDEX "logs_company_category_idx" ON "logs" USING btree ("company_id","category","id");--> statement-breakpoint
CREATE INDEX "logs_search_idx" ON "logs" USING gin ((lower("name" || ' ' || coalesce("category", '') || ' ' || "type")) gin_trgm_ops) WITH (fastupdate=false);--> statement-breakpoint
CREATE INDEX "logs_company_created_idx" ON "logs" USING btree ("company_id","created_at","id");