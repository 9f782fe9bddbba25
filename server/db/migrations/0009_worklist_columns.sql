DROP INDEX "logs_search_idx";--> statement-breakpoint
ALTER TABLE "logs" ADD COLUMN "supplier" text;--> statement-breakpoint
ALTER TABLE "logs" ADD COLUMN "invoice_number" text;--> statement-breakpoint
ALTER TABLE "logs" ADD COLUMN "doc_date" date;--> statement-breakpoint
ALTER TABLE "logs" ADD COLUMN "total" numeric(14, 2);--> statement-breakpoint
ALTER TABLE "logs" ADD COLUMN "warnings" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "logs" ADD COLUMN "duplicate" jsonb;--> statement-breakpoint
CREATE INDEX "logs_company_supplier_idx" ON "logs" USING btree ("company_id",lower("supplier"),"id");--> statement-breakpoint
CREATE INDEX "logs_company_doc_date_idx" ON "logs" USING btree ("company_id","doc_date","id");--> statement-breakpoint
CREATE INDEX "logs_company_total_idx" ON "logs" USING btree ("company_id","total","id");--> statement-breakpoint
CREATE INDEX "logs_search_idx" ON "logs" USING gin ((lower("name" || ' ' || coalesce("category", '') || ' ' || "type" || ' ' || coalesce("supplier", '') || ' ' || coalesce("invoice_number", '') || ' ' || coalesce("total"::text, ''))) gin_trgm_ops) WITH (fastupdate=false);--> statement-breakpoint
-- Hand-written: a dashboard row copies its document's supplier, number, date, total incl. VAT,
-- warnings and duplicate reference, kept in step by these two triggers (PGlite and PostgreSQL).
CREATE OR REPLACE FUNCTION "logs_copy_document"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  SELECT d."business_name", d."invoice_number", d."document_date", d."total_invoice_including_vat",
         d."warnings", d."quality_details" -> 'duplicate'
    INTO NEW."supplier", NEW."invoice_number", NEW."doc_date", NEW."total", NEW."warnings", NEW."duplicate"
    FROM "documents" d WHERE d."id" = NEW."document_id";
  IF NOT FOUND THEN
    NEW."supplier" := NULL; NEW."invoice_number" := NULL; NEW."doc_date" := NULL; NEW."total" := NULL;
    NEW."duplicate" := NULL;
  END IF;
  NEW."warnings" := coalesce(NEW."warnings", '[]'::jsonb);
  RETURN NEW;
END
$$;--> statement-breakpoint
CREATE TRIGGER "logs_copy_document" BEFORE INSERT OR UPDATE OF "document_id" ON "logs"
  FOR EACH ROW EXECUTE FUNCTION "logs_copy_document"();--> statement-breakpoint
CREATE OR REPLACE FUNCTION "documents_copy_to_logs"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "logs" SET
    "supplier" = NEW."business_name",
    "invoice_number" = NEW."invoice_number",
    "doc_date" = NEW."document_date",
    "total" = NEW."total_invoice_including_vat",
    "warnings" = coalesce(NEW."warnings", '[]'::jsonb),
    "duplicate" = NEW."quality_details" -> 'duplicate'
  WHERE "document_id" = NEW."id";
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER "documents_copy_to_logs" AFTER UPDATE OF "business_name", "invoice_number", "document_date",
  "total_invoice_including_vat", "warnings", "quality_details" ON "documents"
  FOR EACH ROW EXECUTE FUNCTION "documents_copy_to_logs"();--> statement-breakpoint
UPDATE "logs" l SET
  "supplier" = d."business_name",
  "invoice_number" = d."invoice_number",
  "doc_date" = d."document_date",
  "total" = d."total_invoice_including_vat",
  "warnings" = d."warnings",
  "duplicate" = d."quality_details" -> 'duplicate'
FROM "documents" d WHERE l."document_id" = d."id";
