CREATE TABLE "document_pages" (
	"document_id" integer NOT NULL,
	"page" integer NOT NULL,
	"width" real NOT NULL,
	"height" real NOT NULL,
	"words" jsonb NOT NULL,
	CONSTRAINT "document_pages_document_id_page_pk" PRIMARY KEY("document_id","page")
);
--> statement-breakpoint
ALTER TABLE "documents" ADD COLUMN "needs_review" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "documents" ADD COLUMN "reviewed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "documents" ADD COLUMN "reviewed_by" integer;--> statement-breakpoint
ALTER TABLE "logs" ADD COLUMN "needs_review" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "document_pages" ADD CONSTRAINT "document_pages_document_id_documents_id_fk" FOREIGN KEY ("document_id") REFERENCES "public"."documents"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "documents" ADD CONSTRAINT "documents_reviewed_by_users_id_fk" FOREIGN KEY ("reviewed_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "logs_company_review_idx" ON "logs" USING btree ("company_id","created_at","id") WHERE "logs"."needs_review";--> statement-breakpoint
-- Hand-written: the dashboard row copies its document's needs_review too (the triggers of
-- migration 0009, with one column more), so the review queue is a filter on one indexed table.
CREATE OR REPLACE FUNCTION "logs_copy_document"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  SELECT d."business_name", d."invoice_number", d."document_date", d."total_invoice_including_vat",
         d."warnings", d."quality_details" -> 'duplicate', d."needs_review"
    INTO NEW."supplier", NEW."invoice_number", NEW."doc_date", NEW."total", NEW."warnings", NEW."duplicate",
         NEW."needs_review"
    FROM "documents" d WHERE d."id" = NEW."document_id";
  IF NOT FOUND THEN
    NEW."supplier" := NULL; NEW."invoice_number" := NULL; NEW."doc_date" := NULL; NEW."total" := NULL;
    NEW."duplicate" := NULL; NEW."needs_review" := false;
  END IF;
  NEW."warnings" := coalesce(NEW."warnings", '[]'::jsonb);
  NEW."needs_review" := coalesce(NEW."needs_review", false);
  RETURN NEW;
END
$$;--> statement-breakpoint
CREATE OR REPLACE FUNCTION "documents_copy_to_logs"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "logs" SET
    "supplier" = NEW."business_name",
    "invoice_number" = NEW."invoice_number",
    "doc_date" = NEW."document_date",
    "total" = NEW."total_invoice_including_vat",
    "warnings" = coalesce(NEW."warnings", '[]'::jsonb),
    "duplicate" = NEW."quality_details" -> 'duplicate',
    "needs_review" = NEW."needs_review"
  WHERE "document_id" = NEW."id";
  RETURN NULL;
END
$$;--> statement-breakpoint
DROP TRIGGER "documents_copy_to_logs" ON "documents";--> statement-breakpoint
CREATE TRIGGER "documents_copy_to_logs" AFTER UPDATE OF "business_name", "invoice_number", "document_date",
  "total_invoice_including_vat", "warnings", "quality_details", "needs_review" ON "documents"
  FOR EACH ROW EXECUTE FUNCTION "documents_copy_to_logs"();--> statement-breakpoint
-- The documents processed before: in the queue when FAILED, warned or a field's confidence is
-- under 0.6 (REVIEW_CONFIDENCE when this was written), unless a user corrected them since.
UPDATE "documents" d SET "needs_review" = true
  WHERE d."kind" IN ('invoice', 'expense')
    AND d."status" IN ('COMPLETED', 'FAILED')
    AND (d."status" = 'FAILED' OR jsonb_array_length(d."warnings") > 0
      OR EXISTS (SELECT 1 FROM jsonb_each(d."field_evidence") e
                 WHERE (e.value ->> 'confidence')::double precision < 0.6))
    AND NOT EXISTS (SELECT 1 FROM "document_changes" c
                    WHERE c."document_id" = d."id" AND (d."processed_at" IS NULL OR c."created_at" >= d."processed_at"));
